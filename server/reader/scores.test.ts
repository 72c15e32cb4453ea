import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scoreMessages, termUnknown } from '../../domain/scores';
import { rowsOf } from '../infra/db';
import { clock } from '../infra/clock';
import { STUCK_AFTER_MS, type Jobs } from '../infra/jobs';
import { requeueStuckJobs } from '../infra/stuckJobs';
import { applicationScores, applications, auditLog, bins, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { postgresReason } from '../testing/db';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

// Both databases: the list's SQL reads jsonb by a parameter and compares a typed CASE to one, which
// PostgreSQL types more strictly than the embedded one (its speed at 100,000: npm run bench:staff).
describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)("the committee's scores on %s: reviews added up, a composite formula, the list sorted and filtered by them (issue 51 §1)", (kind, skipReason) => {
  let t: TestApp;
  let admin = '';
  let readers: string[] = [];
  let decider = '';
  const ids = { ana: '', ben: '', cy: '', dee: '' };

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  async function submittedApplication(username: string, answer: Record<string, string>) {
    await signedInCookie(t, username);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    await t.database.db
      .update(applications)
      .set({ submittedAt: new Date(), status: 'submitted', answer: sql`${applications.answer} || ${JSON.stringify({ first_name: username.split('@')[0], ...answer })}::jsonb` })
      .where(eq(applications.userId, user!.id));
    return user!.id;
  }
  const review = (cookie: string, id: string, ratings: Record<string, number>, recommendation: string) =>
    call(cookie, 'POST', `/staff/api/applications/${id}/reviews`, { form_version: 0, ratings, recommendation, comment: '' });
  const list = async (cookie: string, query: string) => {
    const answer = await call(cookie, 'GET', `/staff/api/applications?status=submitted&${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { total: number; items: { id: string; name: string; scores: { reviews: number; composite: number | null } | null }[] };
  };
  const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

  beforeAll(async () => {
    if (skipReason) return;
    t = await testApp({ kind });
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    readers = [await staffSignIn(t, await setUpStaff(t, 'reader')), await staffSignIn(t, await setUpStaff(t, 'reader'))];
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    ids.ana = await submittedApplication('ana@example.com', { hs_gpa: '3.6', gpa_scale: '4.0' });
    ids.ben = await submittedApplication('ben@example.com', { hs_gpa: '4.5', gpa_scale: '5.0' });
    ids.cy = await submittedApplication('cy@example.com', { hs_gpa: '3.9', gpa_scale: '4.0' });
    ids.dee = await submittedApplication('dee@example.com', {});
    const all = { Academics: 4, Essay: 4, Activities: 4 };
    expect((await review(readers[0]!, ids.ana, { ...all, Academics: 3 }, 'Admit')).statusCode).toBe(201);
    expect((await review(readers[1]!, ids.ana, { ...all, Academics: 4 }, 'Deny')).statusCode).toBe(201);
    expect((await review(readers[0]!, ids.ben, { ...all, Academics: 2 }, 'Admit')).statusCode).toBe(201);
    expect((await review(readers[0]!, ids.dee, { ...all, Academics: 4 }, 'Waitlist')).statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => t?.close());

  it.skipIf(skipReason !== null)('adds up each review as it is signed: the list shows how many, each scale’s mean and each recommendation’s count', async () => {
    const page = await list(decider, 'sort=score_desc&score=mean:Academics');
    // dee 4, ana 3.5, ben 2, and cy, not reviewed, last.
    expect(names(page)).toEqual(['dee', 'ana', 'ben', 'cy']);
    const ana = page.items.find((item) => item.id === ids.ana)!;
    expect(ana.scores).toEqual({
      reviews: 2,
      // In the review form's order.
      means: [
        { scale: 'Academics', mean: 3.5 },
        { scale: 'Essay', mean: 4 },
        { scale: 'Activities', mean: 4 },
      ],
      recommendations: [
        { recommendation: 'Admit', count: 1 },
        { recommendation: 'Deny', count: 1 },
      ],
      composite: null,
    });
    expect(page.items.find((item) => item.id === ids.cy)!.scores).toEqual({ reviews: 0, means: [], recommendations: [], composite: null });
  });

  it.skipIf(skipReason !== null)('filters by a recommendation’s count and by the number of reviews, the counts agreeing with the list', async () => {
    expect(names(await list(decider, 'score=recommended:Admit&score_min=1'))).toEqual(expect.arrayContaining([expect.stringContaining('ana'), expect.stringContaining('ben')]));
    expect((await list(decider, 'score=recommended:Admit&score_min=1')).total).toBe(2);
    expect((await list(decider, 'score=reviews&score_min=2')).items.map((item) => item.id)).toEqual([ids.ana]);
    expect((await list(decider, 'score=reviews&score_max=0')).items.map((item) => item.id)).toEqual([ids.cy]);
    const counts = await call(decider, 'GET', '/staff/api/application-counts?score=reviews&score_min=1');
    expect(counts.json().submitted).toBe(3);
  });

  it.skipIf(skipReason !== null)('takes a formula an administrator defines, checked against the review form, versioned and audited; every composite is computed again by a job', async () => {
    expect((await call(readers[0]!, 'GET', '/staff/api/composite-formula')).json()).toEqual({ version: 0, terms: [], updated_by: null, updated_at: null });
    expect((await list(decider, 'sort=score_desc')).items[0]!.scores!.composite).toBeNull();
    const unknown = await call(admin, 'PUT', '/staff/api/composite-formula', { terms: [{ source: 'scale', name: 'Music', weight: 1 }] });
    expect([unknown.statusCode, unknown.json()]).toEqual([400, { message: termUnknown({ source: 'scale', name: 'Music', weight: 1 }), errors: { 'terms.0': ['Music is not a scale of the review form.'] } }]);
    expect((await call(decider, 'PUT', '/staff/api/composite-formula', { terms: [] })).statusCode).toBe(403);

    const terms = [
      { source: 'scale', name: 'Academics', weight: 2 },
      { source: 'recommendation', name: 'Admit', weight: 3 },
      { source: 'answer', name: 'gpa_on_4', weight: 1 },
    ];
    const saved = await call(admin, 'PUT', '/staff/api/composite-formula', { terms });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ version: 1, terms, updated_by: expect.stringContaining('@') });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'composite_formula_change'));
    expect(entry!.detail).toEqual({ version: 1, terms: ['2 × scale:Academics', '3 × recommendation:Admit', '1 × answer:gpa_on_4'] });

    // ana: 2 × 3.5 + 3 × ½ + 3.6 = 12.1; ben: 2 × 2 + 3 × 1 + 4.5 × 4 / 5 = 10.6; dee has no GPA; cy no review.
    await vi.waitFor(async () => expect((await t.database.db.select().from(applicationScores).where(eq(applicationScores.formulaVersion, 1))).length).toBe(3), { timeout: 30_000, interval: 50 });
    const ranked = await list(decider, 'sort=score_desc');
    expect(ranked.items.map((item) => [item.id, item.scores!.composite])).toEqual([
      [ids.ana, 12.1],
      [ids.ben, 10.6],
      ...[ids.cy, ids.dee].sort().reverse().map((id) => [id, null]),
    ]);
    expect((await list(decider, 'sort=score_asc')).items.slice(0, 2).map((item) => item.id)).toEqual([ids.ben, ids.ana]);
    expect((await list(decider, 'score_min=11')).items.map((item) => item.id)).toEqual([ids.ana]);

    // How it was computed, on the application; and why not, where it was not.
    const ana = (await call(decider, 'GET', `/staff/api/applications/${ids.ana}`)).json();
    expect(ana.scores).toMatchObject({
      composite: 12.1,
      formula_version: 1,
      reason: null,
      parts: [
        { source: 'scale', name: 'Academics', weight: 2, value: 3.5, points: 7 },
        { source: 'recommendation', name: 'Admit', weight: 3, value: 0.5, points: 1.5 },
        { source: 'answer', name: 'gpa_on_4', weight: 1, value: 3.6, points: 3.6 },
      ],
    });
    expect((await call(decider, 'GET', `/staff/api/applications/${ids.dee}`)).json().scores).toMatchObject({ composite: null, reason: 'Not computed: no GPA on a 4.0 scale.' });
    expect((await call(decider, 'GET', `/staff/api/applications/${ids.cy}`)).json().scores).toMatchObject({ reviews: 0, composite: null, reason: scoreMessages.noReviews, formula_version: 1 });
  });

  it.skipIf(skipReason !== null)('moves a composite with the next review and with a corrected GPA, in their own transactions', async () => {
    const signed = await review(readers[1]!, ids.ben, { Academics: 4, Essay: 4, Activities: 4 }, 'Deny');
    expect(signed.statusCode).toBe(201);
    // ben: 2 × 3 + 3 × ½ + 3.6 = 11.1, answered with the review: the reader's page shows it without reading the application again.
    expect(signed.json().scores).toMatchObject({ reviews: 2, composite: 11.1, formula_version: 1 });
    expect((await list(decider, 'sort=score_desc')).items.slice(0, 2).map((item) => [item.id, item.scores!.composite])).toEqual([
      [ids.ana, 12.1],
      [ids.ben, 11.1],
    ]);
    const corrected = await call(decider, 'POST', `/staff/api/applications/${ids.dee}/corrections`, { key: 'hs_gpa', value: '3.2', reason: 'The transcript says 3.2.' });
    expect(corrected.statusCode, corrected.body).toBe(200);
    await call(decider, 'POST', `/staff/api/applications/${ids.dee}/corrections`, { key: 'gpa_scale', value: '4.0', reason: 'The transcript says so.' });
    // dee: 2 × 4 + 3 × 0 + 3.2 = 11.2
    expect((await list(decider, 'sort=score_desc')).items.slice(0, 3).map((item) => [item.id, item.scores!.composite])).toEqual([
      [ids.ana, 12.1],
      [ids.dee, 11.2],
      [ids.ben, 11.1],
    ]);
  });

  it.skipIf(skipReason !== null)('hides a blind bin’s scores from a reader who has not reviewed it, in the list, its order, its filters and the application', async () => {
    const [blindBin] = await t.database.db.select().from(bins).where(eq(bins.blind, true));
    await t.database.db.update(applications).set({ binId: blindBin!.id }).where(eq(applications.userId, ids.ana));
    // readers[1] reviewed ana, ben and nothing else; a third reader reviewed nothing.
    const stranger = await staffSignIn(t, await setUpStaff(t, 'reader'));
    const seen = await list(stranger, 'sort=score_desc');
    expect(seen.items.find((item) => item.id === ids.ana)!.scores).toBeNull();
    // Unseen is no score: last, not first, and out of a range.
    expect(seen.items.map((item) => item.id).slice(0, 2)).toEqual([ids.dee, ids.ben]);
    expect((await list(stranger, 'score_min=12')).total).toBe(0);
    expect((await call(stranger, 'GET', `/staff/api/applications/${ids.ana}`)).json().scores).toBeNull();
    // Its reviewer and a decider see it.
    expect((await list(readers[1]!, 'sort=score_desc')).items[0]!.id).toBe(ids.ana);
    expect((await list(decider, 'score_min=12')).items.map((item) => item.id)).toEqual([ids.ana]);
  });

  it.skipIf(skipReason !== null)('records the score the list was read by with the page in the audit log', async () => {
    await list(decider, 'score=mean:Essay&score_min=3&sort=score_desc');
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'applications_list')).orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(entry!.detail).toMatchObject({ score: 'mean:Essay', score_min: 3, score_max: null, sort: 'score_desc' });
  });

  it.skipIf(skipReason !== null)('refuses a score it cannot read', async () => {
    for (const score of ['median:Essay', 'mean:', 'composite;drop']) expect((await call(decider, 'GET', `/staff/api/applications?score=${encodeURIComponent(score)}`)).statusCode).toBe(400);
  });

  it.skipIf(skipReason !== null)('has a recompute a kill cut off sent again by the stuck-job sweep, once its formula is ten minutes old', async () => {
    await t.database.db.update(applicationScores).set({ formulaVersion: 0 }).where(eq(applicationScores.userId, ids.ben));
    const queued: string[] = [];
    const jobs = { send: async (name: string) => void queued.push(name) } as unknown as Jobs;
    // Just saved: the job it queued may still be running.
    expect(await requeueStuckJobs({ db: t.database.db, jobs }, clock.now())).toBe(0);
    expect(await requeueStuckJobs({ db: t.database.db, jobs }, new Date(clock.now().getTime() + STUCK_AFTER_MS + 60_000))).toBe(1);
    expect(queued).toEqual(['scores-recompute']);
    await t.database.db.update(applicationScores).set({ formulaVersion: 1 }).where(eq(applicationScores.userId, ids.ben));
    expect(await requeueStuckJobs({ db: t.database.db, jobs }, new Date(clock.now().getTime() + STUCK_AFTER_MS + 60_000))).toBe(0);
  });

  it.skipIf(skipReason !== null)('gives the applications reviewed before migration 0053 the same tally as a review signed since', async () => {
    const before = await t.database.db.select().from(applicationScores).orderBy(applicationScores.userId);
    await t.database.db.delete(applicationScores);
    const migration = readFileSync(new URL('../infra/migrations/0053_composite_scores.sql', import.meta.url), 'utf8').split('--> statement-breakpoint').at(-1)!;
    await t.database.db.execute(sql.raw(migration));
    const after = rowsOf<{ user_id: string; reviews: number; means: object; recommendations: object; formula_version: number }>(
      await t.database.db.execute(sql`select user_id, reviews, means, recommendations, formula_version from ${applicationScores} order by user_id`),
    );
    expect(after).toEqual(before.map((row) => ({ user_id: row.userId, reviews: row.reviews, means: row.means, recommendations: row.recommendations, formula_version: 0 })));
  });
});
