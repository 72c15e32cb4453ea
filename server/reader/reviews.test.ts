import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REVIEW_FORM, reviewMessages, reviewSignedText } from '../../domain/reviews';
import { sha256 } from '../infra/crypto';
import { applications, auditLog, bins, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

// The embedded database: the calls' rules (plain inserts and selects, the same on PostgreSQL).
describe('review forms and signed reviews, read blind in a blind bin (issue 30)', () => {
  let t: TestApp;
  let admin = '';
  let firstReader = '';
  let firstEmail = '';
  let secondReader = '';
  let decider = '';

  beforeAll(async () => {
    t = await testApp();
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    const first = await setUpStaff(t, 'reader');
    firstEmail = first.email;
    firstReader = await staffSignIn(t, first);
    secondReader = await staffSignIn(t, await setUpStaff(t, 'reader'));
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  /** An application made submitted in the table: the reviews' rules need nothing else of it. */
  async function submittedApplication(username: string, submitted = true) {
    await signedInCookie(t, username);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (submitted) await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, user!.id));
    return user!.id;
  }
  const review = (form: { version: number }, overrides: object = {}) => ({ form_version: form.version, ratings: { Academics: 3, Essay: 4, Activities: 2 }, recommendation: 'Admit', comment: 'A reader’s reader.\n', ...overrides });

  it('reads on the built-in form until an administrator defines one; each definition is a new version, audited', async () => {
    const builtIn = (await call(firstReader, 'GET', '/staff/api/review-form')).json();
    expect(builtIn).toEqual({ version: 0, ...DEFAULT_REVIEW_FORM, updated_by: null, updated_at: null });
    const repeated = await call(admin, 'PUT', '/staff/api/review-form', { scales: [{ name: 'Essay', labels: ['Weak', 'Strong'] }, { name: 'essay ', labels: ['1', '2'] }], recommendations: ['Admit'] });
    expect([repeated.statusCode, repeated.json()]).toEqual([400, { message: reviewMessages.scaleNameRepeated, errors: { scales: [reviewMessages.scaleNameRepeated] } }]);
    const defined = await call(admin, 'PUT', '/staff/api/review-form', { scales: [{ name: ' Essay ', labels: ['Weak', 'Adequate', 'Strong'] }, { name: 'Academics', labels: ['Low', 'High'] }], recommendations: ['Admit', 'Deny'] });
    expect(defined.statusCode, defined.body).toBe(200);
    expect(defined.json()).toMatchObject({ version: 1, scales: [{ name: 'Essay' }, { name: 'Academics' }], recommendations: ['Admit', 'Deny'] });
    expect((await call(secondReader, 'GET', '/staff/api/review-form')).json()).toEqual(defined.json());
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'review_form_change'));
    expect(entry?.detail).toEqual({ version: 1 });
  });

  it('keeps each reader’s review apart, signed over its words; in a blind bin a reader sees the others only after submitting theirs, a decider always', async () => {
    const form = (await call(firstReader, 'GET', '/staff/api/review-form')).json();
    const id = await submittedApplication('reviewed@example.com');
    const [blindBin] = await t.database.db.select().from(bins).where(eq(bins.blind, true));
    await t.database.db.update(applications).set({ binId: blindBin!.id }).where(eq(applications.userId, id));

    const first = await call(firstReader, 'POST', `/staff/api/applications/${id}/reviews`, review(form, { ratings: { Essay: 3, Academics: 2 } }));
    expect(first.statusCode, first.body).toBe(201);
    const signed = first.json();
    expect(signed).toMatchObject({
      reviewer_email: firstEmail,
      bin: blindBin!.name,
      form_version: form.version,
      ratings: [
        { scale: 'Essay', rating: 3, label: 'Strong' },
        { scale: 'Academics', rating: 2, label: 'High' },
      ],
      recommendation: 'Admit',
      comment: 'A reader’s reader.',
    });
    const text = reviewSignedText({ applicationId: id, reviewerEmail: firstEmail, formVersion: form.version, ratings: signed.ratings, recommendation: 'Admit', comment: signed.comment, submittedAt: signed.submitted_at });
    expect(signed.signature).toBe(sha256(text));
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'review_submit'));
    expect([entry?.staffEmail, entry?.applicationId, entry?.detail]).toEqual([firstEmail, id, { review: signed.id, signature: signed.signature }]);

    // The second reader has not submitted: blind, they learn only how many there are.
    const blind = (await call(secondReader, 'GET', `/staff/api/applications/${id}`)).json();
    expect([blind.reviews, blind.reviews_hidden, blind.bin]).toEqual([[], 1, { id: blindBin!.id, name: blindBin!.name, blind: true }]);
    expect((await call(firstReader, 'GET', `/staff/api/applications/${id}`)).json().reviews).toHaveLength(1);
    expect((await call(decider, 'GET', `/staff/api/applications/${id}`)).json()).toMatchObject({ reviews: [{ id: signed.id }], reviews_hidden: 0 });

    const second = await call(secondReader, 'POST', `/staff/api/applications/${id}/reviews`, review(form, { ratings: { Essay: 1, Academics: 1 }, recommendation: 'Deny', comment: '' }));
    expect(second.statusCode, second.body).toBe(201);
    const seen = (await call(secondReader, 'GET', `/staff/api/applications/${id}`)).json();
    expect([seen.reviews.map((r: { recommendation: string }) => r.recommendation), seen.reviews_hidden]).toEqual([['Admit', 'Deny'], 0]);
  });

  it('refuses a second review by the same reader, one on a form that changed, an incomplete one, and one of an unsubmitted or unknown application, keeping the first as signed', async () => {
    const form = (await call(firstReader, 'GET', '/staff/api/review-form')).json();
    const id = await submittedApplication('refused@example.com');
    const incomplete = await call(firstReader, 'POST', `/staff/api/applications/${id}/reviews`, review(form, { ratings: { Essay: 3 }, recommendation: 'Maybe' }));
    expect([incomplete.statusCode, incomplete.json()]).toEqual([400, { message: 'Rate Academics.', errors: { 'ratings.Academics': ['Rate Academics.'], recommendation: [reviewMessages.recommendationRequired] } }]);
    const stale = await call(firstReader, 'POST', `/staff/api/applications/${id}/reviews`, review({ version: form.version - 1 }, { ratings: { Essay: 3, Academics: 1 } }));
    expect([stale.statusCode, stale.json()]).toEqual([409, { message: reviewMessages.formChanged }]);
    const kept = await call(firstReader, 'POST', `/staff/api/applications/${id}/reviews`, review(form, { ratings: { Essay: 3, Academics: 1 } }));
    expect(kept.statusCode).toBe(201);
    const again = await call(firstReader, 'POST', `/staff/api/applications/${id}/reviews`, review(form, { ratings: { Essay: 1, Academics: 1 }, recommendation: 'Deny' }));
    expect([again.statusCode, again.json()]).toEqual([409, { message: reviewMessages.alreadyReviewed }]);
    // The review as signed, without the scores its answer carried.
    const { scores: _scores, ...signed } = kept.json();
    expect((await call(firstReader, 'GET', `/staff/api/applications/${id}`)).json().reviews).toEqual([signed]);

    const started = await submittedApplication('started@example.com', false);
    const early = await call(firstReader, 'POST', `/staff/api/applications/${started}/reviews`, review(form, { ratings: { Essay: 3, Academics: 1 } }));
    expect([early.statusCode, early.json()]).toEqual([409, { message: reviewMessages.notSubmitted }]);
    const unknown = await call(firstReader, 'POST', '/staff/api/applications/00000000-0000-4000-8000-000000000000/reviews', review(form, { ratings: { Essay: 3, Academics: 1 } }));
    expect(unknown.statusCode).toBe(404);
    const entries = await t.database.db.select().from(auditLog).where(inArray(auditLog.applicationId, [id, started]));
    expect(entries.filter((e) => e.action === 'review_submit')).toHaveLength(1);
  });
});
