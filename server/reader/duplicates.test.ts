import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, applications, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { mergeMessages } from './duplicates';

describe('likely duplicates and merging two records of one person (issue 32)', () => {
  let t: TestApp;
  let admin = '';
  let reader = '';
  let decider = '';
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await testApp();
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    for (const [username, answer] of [
      ['jordan.rivera@gmail.com', { first_name: 'Jordan', last_name: 'Rivera', birth_date: '2008-04-17' }],
      ['JordanRivera+apply@gmail.com', { first_name: 'jordan ', last_name: 'RIVERA', birth_date: '2008-04-17' }],
      ['sam+one@school.example', { first_name: 'Sam', last_name: 'Lee', birth_date: '2008-01-01' }],
      ['sam@school.example', { first_name: 'Samuel', last_name: 'Lee', birth_date: '2008-02-02' }],
      ['other@example.com', { first_name: 'Jordan', last_name: 'Rivera', birth_date: '2009-09-09' }],
    ] as const) {
      const cookie = await signedInCookie(t, username.toLowerCase());
      await t.app.inject({ method: 'PUT', url: '/api/answer', payload: answer, headers: { cookie } });
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username.toLowerCase()));
      ids[username.toLowerCase()] = user!.id;
    }
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = admin) => t.app.inject({ method, url, payload, headers: { cookie } });

  it('pairs records with the same name and birth date, or one mailbox (case, +tag, Gmail dots); a list view on the record', async () => {
    const pairs = (await call('GET', '/staff/api/duplicates', undefined, decider)).json().pairs as { a: { email: string }; b: { email: string }; reasons: string[] }[];
    const named = pairs.map((pair) => [[pair.a.email, pair.b.email].sort().join(' & '), pair.reasons.sort()]);
    expect(named.sort()).toEqual([
      ['jordan.rivera@gmail.com & jordanrivera+apply@gmail.com', ['email_variant', 'name_and_birth_date']],
      ['sam+one@school.example & sam@school.example', ['email_variant']],
    ]);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'duplicates_view'));
    expect((entry!.detail!.ids as string[]).sort()).toEqual([ids['jordan.rivera@gmail.com'], ids['jordanrivera+apply@gmail.com'], ids['sam+one@school.example'], ids['sam@school.example']].sort());
  });

  // Issue 49: a reader reached Duplicates (the roles give it to deciders), and a member with a
  // conflict of interest saw the applicant there (name, e-mail, birth date).
  it('is a decider\'s: 403 to a reader; a pair with a record the member declared a conflict with is not listed to them', async () => {
    expect((await call('GET', '/staff/api/duplicates', undefined, reader)).statusCode).toBe(403);
    const conflicted = await setUpStaff(t, 'decider');
    const cookie = await staffSignIn(t, conflicted);
    const declared = await call('PUT', `/staff/api/applications/${ids['sam@school.example']}/conflict`, { reason: 'My niece.' }, cookie);
    expect(declared.statusCode, declared.body).toBeLessThan(300);
    const emails = (await call('GET', '/staff/api/duplicates', undefined, cookie)).json().pairs.flatMap((pair: { a: { email: string }; b: { email: string } }) => [pair.a.email, pair.b.email]);
    expect(emails).not.toContain('sam@school.example');
    expect(emails).not.toContain('sam+one@school.example');
    expect(emails).toContain('jordan.rivera@gmail.com');
    const [entry] = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'duplicates_view'))).filter((row) => row.staffEmail === conflicted.email);
    expect(entry!.detail!.ids).not.toContain(ids['sam@school.example']);
  });

  it('merges a duplicate into the record that stays, keeping both (nothing deleted), out of the list; undone on request; audited on both', async () => {
    const into = ids['jordan.rivera@gmail.com']!;
    const from = ids['jordanrivera+apply@gmail.com']!;
    const noReason = await call('POST', `/staff/api/applications/${into}/merge`, { duplicate: from, reason: ' ' });
    expect([noReason.statusCode, noReason.json().message]).toEqual([400, mergeMessages.reasonRequired]);
    const merged = await call('POST', `/staff/api/applications/${into}/merge`, { duplicate: from, reason: 'Same person, a +tag address.' });
    expect([merged.statusCode, merged.json()]).toEqual([200, { merged_from: [from] }]);
    expect((await call('GET', `/staff/api/applications/${into}`)).json()).toMatchObject({ merged_into: null, merged_from: [from] });
    const duplicate = (await call('GET', `/staff/api/applications/${from}`)).json();
    expect([duplicate.merged_into, duplicate.view.answer.first_name]).toEqual([into, 'jordan ']);
    const listed = (await call('GET', '/staff/api/applications?q=rivera')).json().items.map((item: { id: string }) => item.id);
    expect(listed).toContain(into);
    expect(listed).not.toContain(from);
    expect((await call('GET', '/staff/api/duplicates')).json().pairs.some((pair: { a: { id: string }; b: { id: string } }) => [pair.a.id, pair.b.id].includes(from))).toBe(false);
    const again = await call('POST', `/staff/api/applications/${ids['other@example.com']}/merge`, { duplicate: from, reason: 'Again.' });
    expect([again.statusCode, again.json().message]).toEqual([409, mergeMessages.alreadyMerged]);
    expect((await call('POST', `/staff/api/applications/${into}/merge`, { duplicate: into, reason: 'Self.' })).json().message).toBe(mergeMessages.same);

    expect((await call('DELETE', `/staff/api/applications/${from}/merge`)).statusCode).toBe(204);
    expect((await call('GET', '/staff/api/applications?q=rivera')).json().items.map((item: { id: string }) => item.id)).toContain(from);
    expect((await call('DELETE', `/staff/api/applications/${from}/merge`)).json().message).toBe(mergeMessages.notMerged);
    const trail = await t.database.db.select().from(auditLog).where(sql`${auditLog.action} in ('application_merge', 'application_unmerge')`);
    expect(trail.map((entry) => [entry.action, entry.applicationId])).toEqual([
      ['application_merge', into],
      ['application_merge', from],
      ['application_unmerge', into],
      ['application_unmerge', from],
    ]);
    expect(await t.database.db.select().from(applications).where(eq(applications.userId, from))).toHaveLength(1);
  });
});
