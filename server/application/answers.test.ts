import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { postgresReason } from '../testing/db';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../infra/db';
import { applications, users, webStatusEvents } from '../infra/schema';
import { sentAnswerMessages } from '../../domain/rules/sentAnswers';
import { STORED_ANSWERS_MAX_CHARS } from '../../domain/rules/storedBound';
import { answerMessages } from './answers';
import { createHash } from 'node:crypto';
import { ACCOUNT_CHANGED_MESSAGE, ANSWERS_CHANGED_MESSAGE } from '../../domain/messages';
import { formatAnswersBase } from '../../domain/rules/answersBase';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('PUT /api/answer on %s', (kind, skipReason) => {
 describe.skipIf(skipReason !== null)('', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await testApp({ kind });
    cookie = await signedInCookie(t, 'answers@example.com');
  });
  afterAll(async () => t?.close());

  const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/answer', payload, headers: { cookie } });
  const answers = async () => (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json().answer;

  it('merges into the stored answers: sent keys added or replaced, keys sent empty or null removed, the rest kept', async () => {
    expect((await put({ first_name: 'Jordan', last_name: 'Rivera', optin_sms_ind: true, middle_name: 'Lee' })).json()).toEqual({ message: answerMessages.saved });
    await put({ last_name: '', preferred_name: 'Jo', middle_name: null, optin_sms_ind: false });
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: false, preferred_name: 'Jo' });
  });

  it('is an update in place (HOT): no index of the row is on what a save writes', async () => {
    const inPlace = await signedInCookie(t, 'in-place@example.com');
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'Ana' }, headers: { cookie: inPlace } });
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'in-place@example.com'));
    // An index on an expression of `answer` (the staff list's entry term was one) makes every save
    // write every index of the row again: saves on PostgreSQL were half as many.
    const indexes = rowsOf<{ definition: string }>(await t.database.db.execute(sql`select pg_get_indexdef(indexrelid) as definition from pg_index where indrelid = 'applications'::regclass`));
    expect(indexes.length).toBeGreaterThan(4);
    for (const { definition } of indexes) expect(definition).not.toMatch(/\b(answer|updated_at)\b/);
    const hot = await t.database.db.transaction(async (tx) => {
      await tx.update(applications).set({ answer: sql`answer || '{"city": "Springfield"}'::jsonb`, updatedAt: new Date() }).where(eq(applications.userId, user!.id));
      return rowsOf<{ hot: string }>(await tx.execute(sql`select pg_stat_get_xact_tuples_hot_updated('applications'::regclass) as hot`))[0]!.hot;
    });
    expect(Number(hot)).toBe(1);
  });

  it('stores the answers compressed with LZ4 where the database has it (pglz took a third of a save in PostgreSQL)', async () => {
    const long = await signedInCookie(t, 'compressed@example.com');
    // Enough text that the stored value is compressed: a save reads it back and writes it again.
    const payload = { first_name: 'Ana', additional_info_essay: 'I would like to study here because of its library. '.repeat(80) };
    expect((await t.app.inject({ method: 'PUT', url: '/api/answer', payload, headers: { cookie: long } })).statusCode).toBe(200);
    const [row] = rowsOf<{ compression: string | null; lz4: boolean }>(
      await t.database.db.execute(sql`select pg_column_compression(a.answer) as compression,
        exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any (enumvals)) as lz4
        from ${applications} a join ${users} u on u.id = a.user_id where u.username = 'compressed@example.com'`),
    );
    expect(row!.compression).toBe(row!.lz4 ? 'lz4' : 'pglz');
    if (kind === 'postgres') expect(row!.lz4).toBe(true);
  });

  it('loses no key when saves of one applicant race each other', async () => {
    const racer = await signedInCookie(t, 'racer@example.com');
    const keys = ['first_name', 'last_name', 'preferred_name', 'middle_name', 'city', 'address_line_1'];
    await Promise.all(keys.map((key) => t.app.inject({ method: 'PUT', url: '/api/answer', payload: { [key]: `value of ${key}` }, headers: { cookie: racer } })));
    const stored = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: racer } })).json().answer;
    expect(stored).toEqual(Object.fromEntries(keys.map((key) => [key, `value of ${key}`])));
  });

  it('refuses a save that would grow the stored application past its bound, and keeps what was stored', async () => {
    const grown = await signedInCookie(t, 'grown@example.com');
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'grown@example.com'));
    // Stored long ago by an older form: near the bound already.
    await t.database.db.insert(applications).values({ userId: user!.id, answer: { old_essay: 'x'.repeat(STORED_ANSWERS_MAX_CHARS - 100) } }).onConflictDoUpdate({
      target: applications.userId,
      set: { answer: { old_essay: 'x'.repeat(STORED_ANSWERS_MAX_CHARS - 100) } },
    });
    const response = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'y'.repeat(200) }, headers: { cookie: grown } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: sentAnswerMessages.tooLarge });
    const stored = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: grown } })).json().answer;
    expect(Object.keys(stored)).toEqual(['old_essay']);
  });

  it('names at most 20 refused keys, however many made-up keys are sent (issue 29, item 10)', async () => {
    const madeUp = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`made_up_${i}`, 'x']));
    const refused = await put({ ...madeUp, first_name: 'y'.repeat(256) });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors)).toHaveLength(20);
  });

  it('refuses keys that are not answer keys and values that are too long', async () => {
    expect((await put({ 'Bad Key': 'x' })).statusCode).toBe(400);
    expect((await put({ essay: 'x'.repeat(7001) })).statusCode).toBe(400);
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: false, preferred_name: 'Jo' });
  });

  it('stores only questions of the form, each within its field, and no document mark', async () => {
    const refused = await put({ first_name: 'Jordan', not_a_question: 'x', student_upload_card: 'ANSWERED', conviction_comment: 'x'.repeat(1501) });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['conviction_comment', 'not_a_question', 'student_upload_card']);
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: false, preferred_name: 'Jo' });
  });

  it('refuses a body that is not JSON with 415 before the handler, whatever it holds', async () => {
    const big = 'x'.repeat(200_000);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'text/html']) {
      const response = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: big, headers: { cookie, 'content-type': contentType } });
      expect(response.statusCode).toBe(415);
    }
    expect(await answers()).toEqual({ first_name: 'Jordan', optin_sms_ind: false, preferred_name: 'Jo' });
  });


  describe('one page, one account, no answer reverted (issue 28)', () => {
    const as = (who: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'PUT', url: '/api/answer', payload, headers: { cookie: who, ...headers } });
    const profileOf = async (who: string) => (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: who } })).json();
    /** A page's header: what it knew of each answer it changed. */
    const base = (known: Record<string, string>) => ({ 'x-answers-base': formatAnswersBase(Object.entries(known).map(([key, text]) => [key, { text }])) });

    it('gives the page its application id, and refuses every write of a page loaded for another account', async () => {
      const first = await signedInCookie(t);
      const second = await signedInCookie(t);
      const firstId = (await profileOf(first)).application_id;
      expect(firstId).toMatch(/^[0-9a-f-]{36}$/);
      await as(second, { first_name: 'Bea' });
      // The second account is signed in now; the first's page sends what it shows.
      const stale = { 'x-application-id': firstId };
      const save = await as(second, { first_name: 'Ann', last_name: 'Old' }, stale);
      expect(save.statusCode).toBe(409);
      expect(save.json()).toEqual({ message: ACCOUNT_CHANGED_MESSAGE, code: 'ACCOUNT_CHANGED' });
      for (const [method, url, payload] of [
        ['PUT', '/api/last-page', { last_page: '/education' }],
        ['PUT', '/api/add-another', { button_id: 'add_sibling', num_components: 3 }],
        ['POST', '/api/web-status', { web_status: 'validating' }],
        ['POST', '/api/submit', undefined],
        ['PUT', '/api/tabs', { tab_id: 'additional_info_tabs', chosen_tab: 'write' }],
        ['POST', '/api/presigned-url', { answer_key: 'additional_info_doc', content_type: 'application/pdf' }],
      ] as const) {
        const response = await t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: second, ...stale } });
        expect(response.statusCode, url).toBe(409);
      }
      const after = await profileOf(second);
      expect(after.answer).toEqual({ first_name: 'Bea' });
      expect(after.last_page).toBeNull();
      expect(after.web_status).toEqual([]);
      // Its own page, and a call without the header, save as before; signing out needs no binding.
      expect((await as(second, { last_name: 'Own' }, { 'x-application-id': after.application_id })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/api/keep-alive', headers: { cookie: second, ...stale } })).statusCode).toBe(200);
    });

    it('keeps an answer changed elsewhere that the page sent unchanged, and says so', async () => {
      const who = await signedInCookie(t);
      await as(who, { first_name: 'Old', city: 'Denver' }, base({ first_name: '', city: '' }));
      // Another tab: Old → New.
      expect((await as(who, { first_name: 'New' }, base({ first_name: 'Old' }))).json()).toEqual({ message: answerMessages.saved });
      // The older tab sends every answer of its page; it changed only the city.
      const older = await as(who, { first_name: 'Old', city: 'Boulder' }, base({ city: 'Denver' }));
      expect(older.statusCode).toBe(200);
      expect(older.json()).toEqual({ message: answerMessages.saved, current: { first_name: 'New' } });
      expect((await profileOf(who)).answer).toEqual({ first_name: 'New', city: 'Boulder' });
    });

    it('refuses, writing nothing, a change made from an answer that changed elsewhere, naming it with the stored value', async () => {
      const who = await signedInCookie(t);
      await as(who, { first_name: 'Old', country: 'USA' });
      await as(who, { first_name: 'New', country: 'CAN' }, base({ first_name: 'Old', country: 'USA' }));
      const older = await as(who, { first_name: 'Mine', country: 'MEX', city: 'Lima' }, base({ first_name: 'Old', country: 'USA', city: '' }));
      expect(older.statusCode).toBe(409);
      expect(older.json()).toEqual({
        message: ANSWERS_CHANGED_MESSAGE,
        code: 'ANSWERS_CHANGED',
        conflicts: ['first_name', 'country'],
        current: { first_name: 'New', country: 'CAN', country_desc: 'Canada' },
      });
      expect((await profileOf(who)).answer).toEqual({ first_name: 'New', country: 'CAN', country_desc: 'Canada' });
      // Chosen: keep mine for the name, take the newer country; sent again from what is stored now.
      const resolved = await as(who, { first_name: 'Mine', country: 'CAN', city: 'Lima' }, base({ first_name: 'New', city: '' }));
      expect(resolved.json()).toEqual({ message: answerMessages.saved });
      expect((await profileOf(who)).answer).toEqual({ first_name: 'Mine', country: 'CAN', country_desc: 'Canada', city: 'Lima' });
    });

    it('compares a long text by its hash, and takes a change both sides made alike without a word', async () => {
      const who = await signedInCookie(t);
      const essay = 'Why I want to study here. '.repeat(40);
      await as(who, { additional_info_essay: essay });
      const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
      const header = (text: string) => ({ 'x-answers-base': formatAnswersBase([['additional_info_essay', { sha256: hashOf(text) }]]) });
      expect((await as(who, { additional_info_essay: `${essay} More.` }, header(essay))).statusCode).toBe(200);
      // From the first version again, elsewhere: a conflict.
      expect((await as(who, { additional_info_essay: `${essay} Other.` }, header(essay))).json().conflicts).toEqual(['additional_info_essay']);
      // The same change made on two devices is no conflict.
      expect((await as(who, { additional_info_essay: `${essay} More.` }, header(essay))).json()).toEqual({ message: answerMessages.saved });
    });

    it('saves the first answers of an application with no row yet, and refuses a header it cannot read', async () => {
      const who = await signedInCookie(t);
      expect((await as(who, { first_name: 'First' }, base({ first_name: '' }))).json()).toEqual({ message: answerMessages.saved });
      const bad = await as(who, { first_name: 'Second' }, { 'x-answers-base': 'first_name=%E0%A4%A' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: answerMessages.badBase });
      expect((await profileOf(who)).answer).toEqual({ first_name: 'First' });
    });

    it('saves at the revision the page knows without comparing, and tells a page that did not know it nothing it could trust', async () => {
      const who = await signedInCookie(t);
      await as(who, { first_name: 'Old', city: 'Denver' });
      const start = (await profileOf(who)).answers_revision;
      expect(start).toBeGreaterThan(0);
      const at = (revision: number, known: Record<string, string>) => ({ 'x-answers-base': formatAnswersBase(Object.entries(known).map(([key, text]) => [key, { text }]), revision) });
      // The page knows the revision: saved, and told the next one.
      const mine = await as(who, { first_name: 'Mine' }, at(start, { first_name: 'Old' }));
      expect(mine.json()).toEqual({ message: answerMessages.saved, revision: start + 1 });
      // Another tab changes the city; this page, still at its revision, saves its name again:
      // compared (the revision moved), saved, and no revision given (it has not seen the city).
      await as(who, { city: 'Boulder' }, base({ city: 'Denver' }));
      const again = await as(who, { first_name: 'Mine again' }, at(start + 1, { first_name: 'Mine' }));
      expect(again.json()).toEqual({ message: answerMessages.saved });
      // Its change of the city, from what it last knew: a conflict, not an overwrite.
      const city = await as(who, { city: 'Lakewood' }, base({ city: 'Denver' }));
      expect(city.statusCode).toBe(409);
      expect(city.json().conflicts).toEqual(['city']);
      expect((await profileOf(who)).answer).toMatchObject({ first_name: 'Mine again', city: 'Boulder' });
    });

    it('takes either value of an answer the page knew two ways: its page-hide save before a reload landed or not (issue 48)', async () => {
      const who = await signedInCookie(t);
      await as(who, { accommodations: 'Extra time' });
      const revision = (await profileOf(who)).answers_revision;
      // The reloaded page read the answers before the closing page's save of 'Extra time on tests'
      // landed: it knows the account held 'Extra time', or holds the draft by now.
      const both = { 'x-answers-base': formatAnswersBase([['accommodations', { text: 'Extra time' }, { text: 'Extra time on tests' }]], revision) };
      // Not landed yet: the revision is as the page knew it.
      expect((await as(who, { accommodations: 'Extra time on tests, please' }, both)).statusCode).toBe(200);
      // Landed before the page's save: compared with either value, saved.
      const landed = await signedInCookie(t);
      await as(landed, { accommodations: 'Extra time' });
      const before = (await profileOf(landed)).answers_revision;
      await as(landed, { accommodations: 'Extra time on tests' });
      const save = await as(landed, { accommodations: 'Extra time on tests, please' }, {
        'x-answers-base': formatAnswersBase([['accommodations', { text: 'Extra time' }, { text: 'Extra time on tests' }]], before),
      });
      expect(save.statusCode).toBe(200);
      expect((await profileOf(landed)).answer).toEqual({ accommodations: 'Extra time on tests, please' });
      // A third value, saved elsewhere: a conflict as before, nothing written.
      await as(landed, { accommodations: 'Another device' });
      const other = await as(landed, { accommodations: 'Mine' }, { 'x-answers-base': formatAnswersBase([['accommodations', { text: 'Extra time' }, { text: 'Extra time on tests, please' }]]) });
      expect(other.statusCode).toBe(409);
      expect(other.json().conflicts).toEqual(['accommodations']);
      expect((await profileOf(landed)).answer).toEqual({ accommodations: 'Another device' });
      // Long texts by their hashes, either one.
      const essay = 'Why I want to study here. '.repeat(40);
      const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
      await as(landed, { additional_info_essay: `${essay} Closing.` });
      const hashed = await as(landed, { additional_info_essay: `${essay} Closing. Reloaded.` }, {
        'x-answers-base': formatAnswersBase([['additional_info_essay', { sha256: hashOf(essay) }, { sha256: hashOf(`${essay} Closing.`) }]]),
      });
      expect(hashed.statusCode).toBe(200);
    });

    it('answers 409, saying why, to every save of an application the office cancelled at my request, until it is reinstated (issue 51)', async () => {
      const who = await signedInCookie(t);
      await as(who, { first_name: 'Cal' });
      const id = (await profileOf(who)).application_id;
      await t.database.db.update(applications).set({ withdrawnAt: new Date(), withdrawnReason: 'Asked to.', withdrawnBy: 'decider@example.edu' }).where(eq(applications.userId, id));
      const cancelled = { message: 'Your application was cancelled at your request, so changes are not saved. To go on with it, please contact the Office of Admissions.' };
      for (const refused of [await as(who, { first_name: 'Plain' }), await as(who, { first_name: 'Checked' }, base({ first_name: 'Cal' })), await as(who, { last_name: 'New key' }, base({}))]) {
        expect([refused.statusCode, refused.json()]).toEqual([409, cancelled]);
      }
      expect(answerMessages.cancelled).toBe(cancelled.message);
      expect((await profileOf(who)).answer).toMatchObject({ first_name: 'Cal' });
      await t.database.db.update(applications).set({ withdrawnAt: null, withdrawnReason: null, withdrawnBy: null }).where(eq(applications.userId, id));
      expect((await as(who, { first_name: 'Again' })).statusCode).toBe(200);
    });

    it('answers 409 to a checked save once submitted', async () => {
      const who = await signedInCookie(t);
      await as(who, { first_name: 'Sub' });
      const id = (await profileOf(who)).application_id;
      await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, id));
      const response = await as(who, { first_name: 'Late' }, base({ first_name: 'Sub' }));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: answerMessages.frozen });
    });
  });

  it('writes every label from the catalogue: a label sent with its choice is not used, one sent alone is dropped, a choice not offered is refused', async () => {
    const who = await signedInCookie(t);
    expect((await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { country: 'USA', country_desc: 'France', state: 'Colorado', state_desc: 'Texas', citizenship_type_desc: 'Anything' }, headers: { cookie: who } })).statusCode).toBe(200);
    const stored = async () => (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: who } })).json().answer;
    expect(await stored()).toEqual({ country: 'USA', country_desc: 'United States', state: 'Colorado', state_desc: 'Colorado' });
    const refused = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { country: 'Atlantis' }, headers: { cookie: who } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ country: [sentAnswerMessages.notAChoice] });
    // A cleared choice clears its label.
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { state: '' }, headers: { cookie: who } });
    expect(await stored()).toEqual({ country: 'USA', country_desc: 'United States' });
  });

  it('takes a body that starts with a byte-order mark as the JSON it is (issue 49: a 500)', async () => {
    const who = await signedInCookie(t);
    const saved = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: '\ufeff{"first_name":"Bom"}', headers: { cookie: who, 'content-type': 'application/json' } });
    expect([saved.statusCode, saved.json()]).toEqual([200, { message: answerMessages.saved }]);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: who } })).json().answer).toEqual({ first_name: 'Bom' });
    expect((await t.app.inject({ method: 'PUT', url: '/api/answer', payload: '\ufeff{}', headers: { cookie: who, 'content-type': 'application/json' } })).statusCode).toBe(200);
  });

  it('refuses a state of another country sent with its country (issue 48)', async () => {
    const who = await signedInCookie(t);
    for (const payload of [{ state: 'Ontario', country: 'USA' }, { hs_state: 'Quebec', hs_country: 'USA' }]) {
      const refused = await t.app.inject({ method: 'PUT', url: '/api/answer', payload, headers: { cookie: who } });
      expect(refused.statusCode).toBe(400);
      expect(Object.values(refused.json().errors)).toEqual([[sentAnswerMessages.notAChoice]]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: who } })).json().answer).toEqual({});
  });

  it('stores the text a page sent as it was checked: its escapes read, its spacing not kept; a list is refused, never stored (issue 33)', async () => {
    const who = await signedInCookie(t);
    const send = (payload: string) => t.app.inject({ method: 'PUT', url: '/api/answer', payload, headers: { cookie: who, 'content-type': 'application/json' } });
    // Labelled as the catalogue labels it: the text sent is what is stored.
    expect((await send('{ "first_name" : "J\\u00f6rg",\n "country": "USA", "country_desc": "United States", "last_name": "a\\\\u0000b" }')).statusCode).toBe(200);
    const stored = async () => (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: who } })).json().answer;
    expect(await stored()).toEqual({ first_name: 'Jörg', country: 'USA', country_desc: 'United States', last_name: 'a\\u0000b' });
    // The text is stored as sent only because the contract's validator changes nothing in it: a
    // one-item list is refused, not made its item (coerceTypes 'array' leaves a value of several types).
    expect((await send('{"middle_name": ["Lee"]}')).statusCode).toBe(400);
    expect((await stored()).middle_name).toBeUndefined();
    // Duplicate keys: the last one, as the check read it.
    expect((await send('{"middle_name": "Ann", "middle_name": "Bo"}')).statusCode).toBe(200);
    expect((await stored()).middle_name).toBe('Bo');
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
});
