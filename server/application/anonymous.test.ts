import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, waitForMail, type TestApp } from '../testing/app';
import { anonymousAnswers } from '../infra/schema';
import { anonymousMessages } from './anonymous';

describe('anonymous answers saved to finish later', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  const save = (payload: object) => t.app.inject({ method: 'POST', url: '/public/tmp', payload });
  const restore = (token: string) => t.app.inject({ method: 'GET', url: `/public/tmp?token=${encodeURIComponent(token)}` });

  it('stores the answers under an unguessable token (only its hash kept) and gives them back', async () => {
    const saved = await save({ answer: { first_name: 'Robin', country: 'USA', country_desc: 'United States', not_a_key: 'x', city: '' } });
    expect(saved.statusCode).toBe(201);
    const { token, url, expires_at } = saved.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`http://localhost:3000/about?token=${token}`);
    expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await t.database.db.select().from(anonymousAnswers)).some((r) => r.tokenHash === token)).toBe(false);

    const back = await restore(token);
    expect(back.statusCode).toBe(200);
    expect(back.json().answer).toEqual({ first_name: 'Robin', country: 'USA', country_desc: 'United States' });
  });

  it('e-mails the link when asked', async () => {
    const saved = await save({ answer: { first_name: 'Robin' }, email: 'Robin@Example.com' });
    const mail = await waitForMail(t.sent, 'robin@example.com');
    expect(mail.text).toContain(saved.json().url);
  });

  it('answers an unknown or expired token with a clear message', async () => {
    expect((await restore('x'.repeat(43))).json()).toEqual({ message: anonymousMessages.notFound });
    const { token } = (await save({ answer: { first_name: 'Old' } })).json();
    await t.database.db.execute(sql`update anonymous_answers set expires_at = now() - interval '1 second'`);
    const expired = await restore(token);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toBe(anonymousMessages.notFound);
  });

  it('refuses nothing to save, a bad e-mail, and a token of the wrong shape', async () => {
    expect((await save({ answer: {} })).json()).toEqual({ message: anonymousMessages.nothingToSave });
    expect((await save({ answer: { first_name: 'A' }, email: 'nope' })).statusCode).toBe(400);
    expect((await restore('short')).statusCode).toBe(400);
  });
});
