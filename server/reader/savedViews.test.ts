import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedViewMessages } from '../../domain/savedViews';
import { staffUsers } from '../infra/schema';
import { testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { savedViewQuery } from './savedViews';

describe('the list’s address as a view keeps it', () => {
  it.each([
    ['status=submitted&page=3&at=abc', 'status=submitted'],
    ['?sort=score_desc&score=mean%3AEssay&entry_term=Fall+2027', 'entry_term=Fall+2027&score=mean%3AEssay&sort=score_desc'],
    ['q=jos%C3%A9&q=other&unknown=1', 'q=jos%C3%A9'],
    ['score_min=&score_max=9', 'score_max=9'],
    ['', ''],
  ])('keeps %j as %j', (given, kept) => {
    expect(savedViewQuery(given)).toBe(kept);
  });

});

// The embedded database: plain inserts and selects, the same on PostgreSQL.
describe('saved views of the list: mine, or shared with the office (issue 51 §1)', () => {
  let t: TestApp;
  let reader = '';
  let readerEmail = '';
  let other = '';
  let admin = '';
  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  const view = (overrides: object = {}) => ({ name: 'Fall 2027, two Admits', query: 'entry_term=Fall+2027&score=recommended%3AAdmit&score_min=2&page=4', columns: ['email', 'reviews', 'composite', 'reviews'], shared: false, ...overrides });

  beforeAll(async () => {
    t = await testApp();
    const account = await setUpStaff(t, 'reader');
    readerEmail = account.email;
    reader = await staffSignIn(t, account);
    other = await staffSignIn(t, await setUpStaff(t, 'decider'));
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
  }, 60_000);
  afterAll(async () => t?.close());

  it('keeps a view for its owner alone until shared; the page is not part of it, a column once', async () => {
    const made = await call(reader, 'POST', '/staff/api/saved-views', view({ name: '  Fall 2027, two Admits ' }));
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ name: 'Fall 2027, two Admits', query: 'entry_term=Fall+2027&score=recommended%3AAdmit&score_min=2', columns: ['email', 'reviews', 'composite'], shared: false, owner_email: readerEmail, mine: true });
    expect((await call(other, 'GET', '/staff/api/saved-views')).json().views).toEqual([]);
    const again = await call(reader, 'POST', '/staff/api/saved-views', view());
    expect([again.statusCode, again.json().message]).toEqual([409, savedViewMessages.nameTaken]);
    // Another member may use the same name for theirs.
    expect((await call(other, 'POST', '/staff/api/saved-views', view())).statusCode).toBe(201);

    const shared = await call(reader, 'PUT', `/staff/api/saved-views/${made.json().id}`, view({ shared: true }));
    expect(shared.json()).toMatchObject({ shared: true });
    const seen = (await call(other, 'GET', '/staff/api/saved-views')).json().views;
    // Theirs first, then those shared.
    expect(seen.map((each: { owner_email: string; mine: boolean }) => each.mine)).toEqual([true, false]);
    expect(seen[1]).toMatchObject({ id: made.json().id, owner_email: readerEmail, mine: false });
  });

  it('lets only its owner change it, and its owner or an administrator remove it', async () => {
    const [mine] = (await call(reader, 'GET', '/staff/api/saved-views')).json().views;
    const refused = await call(other, 'PUT', `/staff/api/saved-views/${mine.id}`, view({ name: 'Taken over' }));
    expect([refused.statusCode, refused.json().message]).toEqual([403, savedViewMessages.notYours]);
    expect((await call(other, 'DELETE', `/staff/api/saved-views/${mine.id}`)).statusCode).toBe(403);
    const unshared = await call(reader, 'POST', '/staff/api/saved-views', view({ name: 'Private' }));
    // Not shared: another member is told there is no such view.
    expect((await call(other, 'DELETE', `/staff/api/saved-views/${unshared.json().id}`)).json().message).toBe(savedViewMessages.notFound);
    expect((await call(admin, 'DELETE', `/staff/api/saved-views/${mine.id}`)).statusCode).toBe(204);
    expect((await call(reader, 'DELETE', `/staff/api/saved-views/${unshared.json().id}`)).statusCode).toBe(204);
    expect((await call(reader, 'GET', '/staff/api/saved-views')).json().views).toEqual([]);
    expect((await call(reader, 'PUT', `/staff/api/saved-views/${mine.id}`, view())).statusCode).toBe(404);
  });

  it('keeps a shared view, with its owner’s name, after the owner’s account is removed', async () => {
    const made = (await call(reader, 'POST', '/staff/api/saved-views', view({ name: 'Kept', shared: true }))).json();
    await t.database.db.delete(staffUsers).where(eq(staffUsers.email, readerEmail));
    const seen = (await call(other, 'GET', '/staff/api/saved-views')).json().views;
    expect(seen.find((each: { id: number }) => each.id === made.id)).toMatchObject({ owner_email: readerEmail, mine: false });
    expect((await call(admin, 'DELETE', `/staff/api/saved-views/${made.id}`)).statusCode).toBe(204);
  });
});
