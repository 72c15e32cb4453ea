import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { auditLog } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

// The embedded database: one grouped count, the list's own (staff.test.ts runs the list on both).
describe('the list’s counts, asked each minute (issue 30)', () => {
  let t: TestApp;
  let reader = '';
  beforeAll(async () => {
    t = await testApp();
    reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
  }, 60_000);
  afterAll(async () => t?.close());

  const counts = async (query = '') => (await t.app.inject({ method: 'GET', url: `/staff/api/application-counts${query}`, headers: { cookie: reader } })).json();

  it('counts per status for the list’s entry term and search, the same as the list, and records nothing', async () => {
    const before = await counts();
    const cookie = await signedInCookie(t, 'counted@example.com');
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { ...completeApplication, last_name: 'Quillfeather' }, headers: { cookie } });
    await t.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } });
    const after = await counts();
    expect(after.submitted).toBe(before.submitted + 1);
    expect(await counts('?q=quillfeather')).toEqual({ started: 0, validating: 0, submitted: 1 });
    expect(await counts('?q=nobody-by-this-name')).toEqual({ started: 0, validating: 0, submitted: 0 });
    const list = (await t.app.inject({ method: 'GET', url: '/staff/api/applications?q=quillfeather&entry_term=Fall%202027', headers: { cookie: reader } })).json();
    expect(await counts('?q=quillfeather&entry_term=Fall%202027')).toEqual(list.counts);

    const entries = (await t.database.db.select().from(auditLog)).map((entry) => entry.action);
    expect(entries.filter((action) => action === 'applications_list')).toHaveLength(1);
  });
});
