import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, auditLog, decisions, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

/** Each report field and the list's filter its figure opens (src/features/staff/reading/ReportsPage.tsx links the same). */
const LIST_FILTER: Record<string, (value: string) => string> = {
  term: (value) => `entry_term=${encodeURIComponent(value)}`,
  major: (value) => `major=${encodeURIComponent(value)}`,
  place: (value) => `place=${encodeURIComponent(value)}`,
  school: (value) => `school=${encodeURIComponent(value)}`,
  bin: (value) => `bin=${value}`,
  status: (value) => `status=${value}`,
  decision: (value) => `decision=${value}`,
  reply: (value) => `reply=${value}`,
  checklist: (value) => `checklist=${value}`,
  recommendation: (value) => `score=${encodeURIComponent(`recommended:${value}`)}&score_min=1`,
};

// Both databases share the SQL (a GROUP BY over the list's filters); the embedded one shows the rules.
describe('reports: applications counted by one or two fields, each figure the list it opens (issue 51 §1)', () => {
  let t: TestApp;
  let decider = '';
  const call = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: decider } });

  beforeAll(async () => {
    t = await testApp();
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    const reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
    const people = [
      ['ana', { applied_major: 'Biology', state_desc: 'Colorado', country: 'USA', entry_term: 'Fall 2027', hs_name: 'East High School' }, 'admit', 'accept', ['Admit']],
      ['ben', { applied_major: 'Biology', state_desc: 'Colorado', country: 'USA', entry_term: 'Fall 2027', hs_name: 'East High School' }, 'admit', null, ['Admit', 'Deny']],
      ['cy', { applied_major: 'History', state_desc: 'Utah', country: 'USA', entry_term: 'Fall 2028', hs_name: 'West High School' }, 'deny', null, []],
      ['dee', { applied_major: 'History', country: 'JPN', country_desc: 'Japan', entry_term: 'Fall 2027' }, null, null, ['Waitlist']],
      ['eve', { entry_term: 'Fall 2027' }, null, null, []],
    ] as const;
    for (const [name, answer, decision, replied, recommended] of people) {
      await signedInCookie(t, `${name}@example.com`);
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, `${name}@example.com`));
      await t.database.db
        .update(applications)
        .set({ submittedAt: new Date(), status: 'submitted', answer: sql`${applications.answer} || ${JSON.stringify({ first_name: name, ...answer })}::jsonb` })
        .where(eq(applications.userId, user!.id));
      if (decision) await t.database.db.insert(decisions).values({ userId: user!.id, decision, decidedByEmail: 'decider@example.edu', decidedAt: new Date(), releaseAt: new Date(Date.now() - 60_000), reply: replied });
      for (const [index, recommendation] of recommended.entries()) {
        const cookie = index === 0 ? reader : decider;
        const signed = await t.app.inject({ method: 'POST', url: `/staff/api/applications/${user!.id}/reviews`, headers: { cookie }, payload: { form_version: 0, ratings: { Academics: 3, Essay: 3, Activities: 3 }, recommendation, comment: '' } });
        expect(signed.statusCode, signed.body).toBe(201);
      }
    }
  }, 60_000);
  afterAll(async () => t?.close());

  it('counts by state or country, then by decision, each group labelled as the list shows it, largest first', async () => {
    const report = await call('/staff/api/reports?by=place&then=decision&status=submitted');
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toEqual({
      by: 'place',
      then: 'decision',
      total: 5,
      groups: [
        { by: 'Colorado', by_value: 'Colorado', then: 'Admit', then_value: 'admit', count: 2 },
        { by: 'Japan', by_value: 'Japan', then: 'No decision', then_value: 'none', count: 1 },
        { by: 'Utah', by_value: 'Utah', then: 'Deny', then_value: 'deny', count: 1 },
        { by: 'Not answered', by_value: null, then: 'No decision', then_value: 'none', count: 1 },
      ],
    });
  });

  it('counts an application once per recommendation its reviews make, and keeps the list’s filters', async () => {
    const report = (await call('/staff/api/reports?by=recommendation&entry_term=Fall+2027')).json();
    expect([report.total, report.groups.map((group: { by: string; count: number }) => [group.by, group.count])]).toEqual([
      4,
      [
        ['Admit', 2],
        ['Deny', 1],
        ['Waitlist', 1],
        ['No reviews', 1],
      ],
    ]);
    expect((await call('/staff/api/reports?by=reply')).json().groups.map((group: { by: string; count: number }) => [group.by, group.count])).toEqual([
      ['No admission released', 3],
      ['Accepted', 1],
      ['No reply yet', 1],
    ]);
  });

  it('opens, for every figure of every field, a list of exactly that many applications', async () => {
    for (const field of Object.keys(LIST_FILTER)) {
      const report = (await call(`/staff/api/reports?by=${field}&status=submitted`)).json();
      for (const group of report.groups as { by_value: string | null; count: number }[]) {
        if (group.by_value === null) continue;
        const list = await call(`/staff/api/applications?${field === 'status' ? '' : 'status=submitted&'}${LIST_FILTER[field]!(group.by_value)}`);
        expect([field, group.by_value, list.json().total]).toEqual([field, group.by_value, group.count]);
      }
    }
  });

  it('names no applicant, so it is not in the audit log; a reader may read it', async () => {
    const before = (await t.database.db.select().from(auditLog)).length;
    await call('/staff/api/reports?by=major&then=term');
    expect((await t.database.db.select().from(auditLog)).length).toBe(before);
    expect((await call('/staff/api/reports?by=shoe_size')).statusCode).toBe(400);
  });
});
