import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignments, reviews, staffUsers, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

const DAY = 86_400_000;
/** Noon UTC `daysAgo` days before today: the dashboard's days are UTC dates. */
const noon = (daysAgo: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 12) - daysAgo * DAY);
const dateOf = (daysAgo: number) => noon(daysAgo).toISOString().slice(0, 10);

// The embedded database: the SQL is plain (a window sum over generate_series), the same on PostgreSQL.
describe('each reader’s work on the dashboard: reviews per day, files open at each day’s end (issue 51 §1)', () => {
  let t: TestApp;
  let reader = '';
  let readerEmail = '';
  let decider = '';

  beforeAll(async () => {
    t = await testApp();
    const account = await setUpStaff(t, 'reader');
    readerEmail = account.email;
    reader = await staffSignIn(t, account);
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    const [me] = await t.database.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, readerEmail));
    const ids: string[] = [];
    for (const name of ['old', 'done', 'open', 'new']) {
      await signedInCookie(t, `${name}@example.com`);
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, `${name}@example.com`));
      ids.push(user!.id);
    }
    // Given 20 days ago, reviewed 2 days ago; given 20 days ago, reviewed today; given yesterday, open; given today, open.
    const given = [
      [ids[0]!, noon(20), noon(2)],
      [ids[1]!, noon(20), noon(0)],
      [ids[2]!, noon(1), null],
      [ids[3]!, noon(0), null],
    ] as const;
    for (const [userId, assignedAt, reviewedAt] of given) {
      await t.database.db.insert(assignments).values({ userId, staffId: me!.id, assignedByEmail: 'decider@example.edu', assignedAt, reviewedAt });
      if (reviewedAt)
        await t.database.db
          .insert(reviews)
          .values({ userId, staffId: me!.id, reviewerEmail: readerEmail, binName: null, formVersion: 0, ratings: [], recommendation: 'Admit', comment: '', submittedAt: reviewedAt, signature: 'a'.repeat(64) });
    }
  }, 60_000);
  afterAll(async () => t?.close());

  it('counts each day’s reviews and the files open at its end, and the files open now', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/staff/api/dashboard', headers: { cookie: decider } });
    expect(response.statusCode, response.body).toBe(200);
    const line = response.json().workload.find((each: { email: string }) => each.email === readerEmail);
    expect([line.open, line.reviewed, line.days.length]).toEqual([2, 2, 14]);
    expect(line.days[0]).toEqual({ date: dateOf(13), reviewed: 0, open: 2 });
    expect(line.days.slice(-4)).toEqual([
      { date: dateOf(3), reviewed: 0, open: 2 },
      { date: dateOf(2), reviewed: 1, open: 1 },
      { date: dateOf(1), reviewed: 0, open: 2 },
      { date: dateOf(0), reviewed: 1, open: 2 },
    ]);
  });

  it('shows a reader their own line alone', async () => {
    const workload = (await t.app.inject({ method: 'GET', url: '/staff/api/dashboard', headers: { cookie: reader } })).json().workload;
    expect(workload.map((each: { email: string }) => each.email)).toEqual([readerEmail]);
  });
});
