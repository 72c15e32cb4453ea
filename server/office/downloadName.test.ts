import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { users } from '../infra/schema';
import { downloadNameOf } from './downloadName';
import { serviceViewOf } from './applicationView';

// The embedded database: the number is an identity column, the same on PostgreSQL.
describe('application numbers and download names (issue 30)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  const userIdOf = async (username: string) => (await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0]!.id;
  const save = (cookie: string, answer: object) => t.app.inject({ method: 'PUT', url: '/api/answer', payload: answer, headers: { cookie } });

  it('numbers each application once, for good, and names its downloads Lastname_Firstname_<number>_<what>.pdf', async () => {
    const first = await signedInCookie(t, 'numbered-1@example.com');
    const second = await signedInCookie(t, 'numbered-2@example.com');
    expect((await save(first, { first_name: 'José', last_name: 'Núñez' })).statusCode).toBe(200);
    expect((await save(second, { first_name: 'Ana' })).statusCode).toBe(200);
    const [one, two] = [await userIdOf('numbered-1@example.com'), await userIdOf('numbered-2@example.com')];
    const number = (await serviceViewOf(t.database.db, one))!.application_number!;
    expect(number).toBeGreaterThanOrEqual(100001);
    expect((await serviceViewOf(t.database.db, two))!.application_number).toBeGreaterThan(number);

    expect(await downloadNameOf(t.database.db, one, 'Application')).toBe(`Nunez_Jose_${number}_Application.pdf`);
    // A later save changes the name in the file, never the number.
    expect((await save(first, { last_name: 'Núñez García' })).statusCode).toBe(200);
    expect(await downloadNameOf(t.database.db, one, 'Additional Information')).toBe(`Nunez-Garcia_Jose_${number}_Additional-Information.pdf`);
    expect((await serviceViewOf(t.database.db, one))!.application_number).toBe(number);
  });

  it('numbers an account from its first sign-in, and names one that answered no name "Applicant"', async () => {
    await signedInCookie(t, 'never-saved@example.com');
    const id = await userIdOf('never-saved@example.com');
    expect(await downloadNameOf(t.database.db, id, 'Application')).toMatch(/^Applicant_Applicant_\d{6}_Application\.pdf$/);
  });
});
