import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { users, webStatusEvents } from '../infra/schema';
import { answerMessages, mergeAnswers } from './answers';

describe('mergeAnswers', () => {
  it('adds and replaces sent keys, removes keys sent empty or null, keeps the rest', () => {
    expect(mergeAnswers({ a: '1', b: '2', c: true }, { b: '3', c: '', d: false, e: null })).toEqual({ a: '1', b: '3', d: false });
  });
});

describe('PUT /api/answer', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await testApp();
    cookie = await signedInCookie(t, 'answers@example.com');
  });
  afterAll(async () => t?.close());

  const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/answer', payload, headers: { cookie } });
  const answers = async () => (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json().answer;

  it('merges into the stored answers', async () => {
    expect((await put({ first_name: 'Jordan', last_name: 'Rivera', optin_sms_ind: true })).json()).toEqual({ message: answerMessages.saved });
    await put({ last_name: '', preferred_name: 'Jo' });
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: true, preferred_name: 'Jo' });
  });

  it('refuses keys that are not answer keys and values that are too long', async () => {
    expect((await put({ 'Bad Key': 'x' })).statusCode).toBe(400);
    expect((await put({ essay: 'x'.repeat(7001) })).statusCode).toBe(400);
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: true, preferred_name: 'Jo' });
  });

  it('stores only questions of the form, each within its field, and no document mark', async () => {
    const refused = await put({ first_name: 'Jordan', not_a_question: 'x', student_upload_card: 'ANSWERED', conviction_comment: 'x'.repeat(1501) });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['conviction_comment', 'not_a_question', 'student_upload_card']);
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: true, preferred_name: 'Jo' });
  });

  it('refuses a body that is not JSON with 415 before the handler, whatever it holds', async () => {
    const big = 'x'.repeat(200_000);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'text/html']) {
      const response = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: big, headers: { cookie, 'content-type': contentType } });
      expect(response.statusCode).toBe(415);
    }
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: true, preferred_name: 'Jo' });
  });

  it('answers 409 once the application is submitted, and keeps the answers', async () => {
    const [user] = await t.database.db.select().from(users);
    await t.database.db.insert(webStatusEvents).values({ userId: user!.id, webStatus: 'submitted' });
    const response = await put({ first_name: 'Changed' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: answerMessages.frozen });
    expect((await answers()).first_name).toBe('Jordan');
  });
});
