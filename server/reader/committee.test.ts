import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, auditLog, bins, conflicts, staffUsers, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { committeeMessages } from './committee';

// The embedded database: the rules of the committee's table (its SQL is the list's, timed at scale by npm run bench:staff).
describe('the committee’s table: a bin or a selection ranked by composite, every review side by side (issue 51 §1)', () => {
  let t: TestApp;
  let decider = '';
  let deciderEmail = '';
  let reader = '';
  let readerEmail = '';
  const ids = { ana: '', ben: '', cy: '' };
  let firstBin = 0;

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  async function submitted(username: string) {
    await signedInCookie(t, username);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    await t.database.db
      .update(applications)
      .set({ submittedAt: new Date(), status: 'submitted', binId: firstBin, answer: sql`${applications.answer} || ${JSON.stringify({ first_name: username.split('@')[0], entry_term: 'Fall 2027' })}::jsonb` })
      .where(eq(applications.userId, user!.id));
    return user!.id;
  }

  beforeAll(async () => {
    t = await testApp();
    const deciderAccount = await setUpStaff(t, 'decider');
    deciderEmail = deciderAccount.email;
    decider = await staffSignIn(t, deciderAccount);
    const readerAccount = await setUpStaff(t, 'reader');
    readerEmail = readerAccount.email;
    reader = await staffSignIn(t, readerAccount);
    const [bin] = await t.database.db.select().from(bins).where(eq(bins.name, 'Committee'));
    firstBin = bin!.id;
    ids.ana = await submitted('ana@example.com');
    ids.ben = await submitted('ben@example.com');
    ids.cy = await submitted('cy@example.com');
    const review = (cookie: string, id: string, academics: number, recommendation: string, comment: string) =>
      call(cookie, 'POST', `/staff/api/applications/${id}/reviews`, { form_version: 0, ratings: { Academics: academics, Essay: 3, Activities: 2 }, recommendation, comment });
    expect((await review(reader, ids.ana, 2, 'Waitlist', 'Solid.')).statusCode).toBe(201);
    expect((await review(decider, ids.ana, 3, 'Admit', '')).statusCode).toBe(201);
    expect((await review(reader, ids.ben, 4, 'Admit', 'The best essay this year.')).statusCode).toBe(201);
    expect((await call(await staffSignIn(t, await setUpStaff(t, 'admin')), 'PUT', '/staff/api/composite-formula', { terms: [{ source: 'scale', name: 'Academics', weight: 1 }] })).statusCode).toBe(200);
    // The recompute is the scores' test's; here the formula's job has nothing to wait for but these three.
    for (const deadline = Date.now() + 30_000; ; ) {
      const body = (await call(decider, 'GET', `/staff/api/committee?bin=${firstBin}`)).json();
      if (body.items?.[0]?.scores.composite === 4) break;
      if (Date.now() > deadline) throw new Error(`composites not recomputed: ${JSON.stringify(body.items?.map((item: { scores: unknown }) => item.scores))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);
  afterAll(async () => t?.close());

  it('ranks a bin by composite, each application with its decision and every review, in the form’s scale order, and audits what it showed', async () => {
    const decided = await call(decider, 'POST', '/staff/api/decisions', { application_ids: [ids.ben], decision: 'admit' });
    expect(decided.statusCode, decided.body).toBe(200);
    const view = await call(decider, 'GET', `/staff/api/committee?bin=${firstBin}`);
    expect(view.statusCode, view.body).toBe(200);
    const body = view.json();
    expect([body.total, body.shown, body.scales]).toEqual([3, 3, ['Academics', 'Essay', 'Activities']]);
    expect(body.items.map((item: { id: string; scores: { composite: number | null } }) => [item.id, item.scores.composite])).toEqual([
      [ids.ben, 4],
      [ids.ana, 2.5],
      [ids.cy, null],
    ]);
    expect(body.items[0]).toMatchObject({ name: 'ben', entry_term: 'Fall 2027', decision: { decision: 'admit', released: false } });
    expect(body.items[1].reviews).toEqual([
      { reviewer_email: readerEmail, ratings: expect.arrayContaining([expect.objectContaining({ scale: 'Academics', rating: 2 })]), recommendation: 'Waitlist', comment: 'Solid.' },
      { reviewer_email: deciderEmail, ratings: expect.arrayContaining([expect.objectContaining({ scale: 'Academics', rating: 3 })]), recommendation: 'Admit', comment: '' },
    ]);
    expect(body.items[2]).toMatchObject({ decision: null, reviews: [], scores: { reviews: 0, composite: null } });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'committee_view')).orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(entry!.detail).toEqual({ bin: firstBin, ids: [ids.ben, ids.ana, ids.cy] });
  });

  it('reads the applications ticked, in the same order, and leaves out a withdrawn one from a bin but not from a selection', async () => {
    const chosen = await call(decider, 'GET', `/staff/api/committee?ids=${ids.cy},${ids.ana}`);
    expect(chosen.json().items.map((item: { id: string }) => item.id)).toEqual([ids.ana, ids.cy]);
    await t.database.db.update(applications).set({ withdrawnAt: new Date() }).where(eq(applications.userId, ids.ana));
    expect((await call(decider, 'GET', `/staff/api/committee?bin=${firstBin}`)).json().items.map((item: { id: string }) => item.id)).toEqual([ids.ben, ids.cy]);
    expect((await call(decider, 'GET', `/staff/api/committee?ids=${ids.ana}`)).json().total).toBe(1);
    await t.database.db.update(applications).set({ withdrawnAt: null }).where(eq(applications.userId, ids.ana));
  });

  it('leaves out an application the decider declared a conflict with', async () => {
    const [me] = await t.database.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, deciderEmail));
    await t.database.db.insert(conflicts).values({ userId: ids.ben, staffId: me!.id, reason: 'My neighbour.', declaredAt: new Date() });
    expect((await call(decider, 'GET', `/staff/api/committee?bin=${firstBin}`)).json().items.map((item: { id: string }) => item.id)).toEqual([ids.ana, ids.cy]);
    await t.database.db.delete(conflicts).where(eq(conflicts.userId, ids.ben));
  });

  it('asks for a bin or a selection, not both, not neither; a reader may not read it', async () => {
    for (const query of ['', `?bin=${firstBin}&ids=${ids.ana}`]) expect((await call(decider, 'GET', `/staff/api/committee${query}`)).json()).toEqual({ message: committeeMessages.binOrIds });
    expect(committeeMessages.binOrIds).toBe('Choose a bin, or tick the applications to read together.');
    expect((await call(decider, 'GET', '/staff/api/committee?ids=not-an-id')).statusCode).toBe(400);
    expect((await call(reader, 'GET', `/staff/api/committee?bin=${firstBin}`)).statusCode).toBe(403);
  });
  it('tells a member who else opened an application in the last ten minutes, not themselves (issue 51 §4)', async () => {
    expect((await call(reader, 'GET', `/staff/api/applications/${ids.cy}`)).json().open_by).toEqual([]);
    const seen = (await call(decider, 'GET', `/staff/api/applications/${ids.cy}`)).json().open_by;
    expect(seen).toEqual([{ email: readerEmail, at: expect.any(String) }]);
    expect((await call(reader, 'GET', `/staff/api/applications/${ids.cy}`)).json().open_by).toEqual([{ email: deciderEmail, at: expect.any(String) }]);
  });
});
