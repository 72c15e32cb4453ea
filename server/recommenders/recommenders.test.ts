import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { checklistMessages } from '../../domain/checklist';
import { partnerConfig } from '../../domain/config';
import { fileMessages } from '../../domain/messages';
import { correctionMessages } from '../../domain/corrections';
import { ratingRequiredOf, RATING_POINTS, RATING_SCALES, recommenderMessages } from '../../domain/recommenders';
import { formatAnswersBase } from '../../domain/rules/answersBase';
import { clock } from '../infra/clock';
import { TOO_MANY_ATTEMPTS } from '../infra/rateLimit';
import { applications, checklistMarks, materialReminders, materials, recommenders, users } from '../infra/schema';
import type { Mail } from '../infra/mail';
import { PORTAL_ACTOR, refreshChecklist } from '../office/checklist';
import { cookieHeader, signedInCookie, TEST_PASSWORD, testApp, type TestApp } from '../testing/app';
import { REMINDER_LEASE_MS, sendMaterialReminders } from './reminders';
import { FIXTURE_TEXT, makeFixtureFiles, pdfTextByPage, type FixtureFiles } from '../testing/files';
import { setUpStaff, staffSignIn } from '../testing/staff';

const ratings = Object.fromEntries(RATING_SCALES.map((scale) => [scale, RATING_POINTS[1]]));
const tokenIn = (text: string) => /recommend\?token=([\w-]+)/.exec(text)![1]!;

// The embedded database: the links' rules are plain SQL, the same on PostgreSQL.
describe('recommenders (issue 31)', () => {
  let t: TestApp;
  let files: FixtureFiles;
  let staff = '';
  beforeAll(async () => {
    [t, files] = await Promise.all([testApp({ env: { RATE_LIMIT_SCALE: '1' } }), makeFixtureFiles()]);
    staff = await staffSignIn(t, await setUpStaff(t, 'reader'));
  }, 60_000);
  afterAll(async () => t?.close());

  /** An applicant with a submitted application, waiving (or not) their right to see the letters. */
  async function applicant(username: string, waived: boolean) {
    const cookie = await signedInCookie(t, username);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    await t.database.db
      .update(applications)
      .set({ answer: { ...completeApplication, first_name: 'Jordan', last_name: 'Rivera', citizenship_type: 'C', counselor_waiver_request: waived ? 'Y' : 'N' }, submittedAt: new Date() })
      .where(eq(applications.userId, user!.id));
    return { cookie, id: user!.id };
  }
  const as = (cookie: string) => (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  const pub = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload });

  async function invite(cookie: string, body: { role: string; name: string; email: string }) {
    const response = await as(cookie)('POST', '/api/recommenders', body);
    const mail = t.sent.filter((each) => each.to === body.email).at(-1);
    return { response, mail, token: mail ? tokenIn(mail.text) : '' };
  }

  /** The recommender's whole sequence: policy, upload, answers with the letter. */
  async function recommend(token: string, bytes: Buffer, name: string, type: string, answers: object = { relationship: 'AP Chemistry teacher', known_for: '1 to 2 years', ratings }) {
    const policy = await pub('POST', `/public/recommendation/upload?token=${token}`, { content_type: type });
    expect(policy.statusCode, policy.body).toBe(200);
    const form = new FormData();
    for (const [field, value] of Object.entries(policy.json().fields as Record<string, string>)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    expect((await t.app.inject({ method: 'POST', url: '/upload', payload: form })).statusCode).toBe(204);
    return pub('POST', `/public/recommendation?token=${token}`, { ...answers, file_key: policy.json().fields.key, file_name: name });
  }

  /** The link's answer once the letter's conversion is over, waited for in the database (each call through the link counts against its per-client limit). */
  async function settled(token: string) {
    // Bounded by time, not by tries: on a busy machine a conversion can take a while.
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const pending = await t.database.db.select({ id: materials.id }).from(materials).where(inArray(materials.status, ['unprocessed', 'in_progress']));
      if (pending.length === 0) return pub('GET', `/public/recommendation?token=${token}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the letter was never converted');
  }

  it('asks a counselor and a teacher; the teacher’s link opens a page about this request alone, takes a DOCX letter, and the letter lands on the checklist; a waiver hides it from the applicant', async () => {
    const { cookie, id } = await applicant('waiver@example.com', true);
    const counselor = await invite(cookie, { role: 'counselor', name: 'Pat Lee', email: 'Counselor@School.example' });
    expect(counselor.response.statusCode, counselor.response.body).toBe(201);
    expect(counselor.response.json()).toMatchObject({ role: 'counselor', name: 'Pat Lee', email: 'counselor@school.example', status: 'sent', letter: false });
    const teacher = await invite(cookie, { role: 'teacher', name: 'Sam Ortiz', email: 'teacher@school.example' });
    expect(teacher.mail!.subject).toBe(`Jordan Rivera asks you for a recommendation to ${partnerConfig.name}`);
    expect(teacher.mail!.text).toContain('The applicant has waived their right to see this recommendation: they will not read your letter.');
    // The token is mailed, never stored.
    const [stored] = await t.database.db.select().from(recommenders).where(eq(recommenders.email, 'teacher@school.example'));
    expect(stored!.tokenHash).not.toContain(teacher.token);

    const opened = await pub('GET', `/public/recommendation?token=${teacher.token}`);
    expect(opened.json()).toEqual({ applicant_name: 'Jordan Rivera', recommender_name: 'Sam Ortiz', role: 'teacher', waived: true, letter: null });
    expect((await as(cookie)('GET', '/api/recommenders')).json().recommenders.map((r: { status: string }) => r.status)).toEqual(['sent', 'opened']);

    const incomplete = await pub('POST', `/public/recommendation?token=${teacher.token}`, { relationship: ' ', known_for: 'forever', ratings: {}, file_key: '', file_name: '' });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().errors).toEqual({
      relationship: [recommenderMessages.relationshipRequired],
      known_for: [recommenderMessages.knownForRequired],
      ...Object.fromEntries(RATING_SCALES.map((scale) => [`ratings.${scale}`, [ratingRequiredOf(scale)]])),
      letter: [recommenderMessages.letterRequired],
    });
    const sent = await recommend(teacher.token, files.docx, 'letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().letter).toMatchObject({ file_name: 'letter.docx' });
    // Converted: the link is used up, the recommendation submitted, the applicant told so but shown no letter.
    const done = await settled(teacher.token);
    expect([done.statusCode, done.json()]).toEqual([409, { message: recommenderMessages.linkUsed }]);
    const mine = (await as(cookie)('GET', '/api/recommenders')).json();
    expect(mine.waived).toBe(true);
    expect(mine.recommenders[1]).toMatchObject({ name: 'Sam Ortiz', status: 'submitted', letter: false, submitted_at: expect.any(String) });
    const hidden = await as(cookie)('GET', `/api/recommenders/${mine.recommenders[1].id}/letter`);
    expect([hidden.statusCode, hidden.json()]).toEqual([403, { message: recommenderMessages.letterHidden }]);

    // Staff read it on the checklist, with what the form said.
    const checklist = (await as(staff)('GET', `/staff/api/applications/${id}/checklist`)).json();
    const item = checklist.items.find((each: { key: string }) => each.key === 'teacher_recommendation');
    expect(item).toMatchObject({ status: 'received', by: 'teacher@school.example' });
    expect(item.materials[0]).toMatchObject({ file_name: 'letter.docx', status: 'completed', recommendation: { name: 'Sam Ortiz', role: 'teacher', relationship: 'AP Chemistry teacher', known_for: '1 to 2 years', ratings } });
    const letter = await as(staff)('GET', `/staff/api/applications/${id}/materials/${item.materials[0].id}`);
    expect((await pdfTextByPage(letter.rawPayload)).join(' ')).toContain(FIXTURE_TEXT.docx);
    // Nothing more to resend or withdraw.
    expect((await as(cookie)('POST', `/api/recommenders/${mine.recommenders[1].id}/resend`)).json()).toEqual({ message: recommenderMessages.alreadySubmitted });
    expect((await as(cookie)('DELETE', `/api/recommenders/${mine.recommenders[1].id}`)).statusCode).toBe(409);
  });

  it('without the waiver the applicant reads the letter; the recommender was told so', async () => {
    const { cookie } = await applicant('no-waiver@example.com', false);
    const teacher = await invite(cookie, { role: 'teacher', name: 'Ann Cho', email: 'ann@school.example' });
    expect(teacher.mail!.text).toContain('The applicant has not waived their right to see this recommendation: they may read your letter.');
    expect((await recommend(teacher.token, files.pdf, 'letter.pdf', 'application/pdf')).statusCode).toBe(202);
    await settled(teacher.token);
    const [mine] = (await as(cookie)('GET', '/api/recommenders')).json().recommenders;
    expect(mine).toMatchObject({ status: 'submitted', letter: true });
    const letter = await as(cookie)('GET', `/api/recommenders/${mine.id}/letter`);
    expect([letter.statusCode, letter.headers['content-type']]).toEqual([200, 'application/pdf']);
  });

  // Issue 49 item 1 (FERPA): the waiver was taken back (PUT /api/answer N, 200) and the letter read.
  it('binds a letter to the waiver it was asked under: the answer stays Y while that request stands, for the applicant and the office, and the letter is never the applicant’s', async () => {
    const cookie = await signedInCookie(t, 'bound-waiver@example.com');
    const put = (answers: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'PUT', url: '/api/answer', payload: answers, headers: { cookie, ...headers } });
    expect((await put({ first_name: 'Jordan', last_name: 'Rivera', counselor_waiver_request: 'Y' })).statusCode).toBe(200);
    const profile = async () => (await as(cookie)('GET', '/api/profile')).json();
    expect((await profile()).bound_answers).toEqual([]);
    const teacher = await invite(cookie, { role: 'teacher', name: 'Sam Ortiz', email: 'bound@school.example' });
    expect(teacher.response.json()).toMatchObject({ waived: true, letter: false });
    expect((await recommend(teacher.token, files.pdf, 'letter.pdf', 'application/pdf')).statusCode).toBe(202);
    await settled(teacher.token);
    expect((await profile()).bound_answers).toEqual(['counselor_waiver_request']);

    // Taken back by a plain save, a checked one, or cleared: nothing written, whatever else was sent.
    const base = { 'x-answers-base': formatAnswersBase([['counselor_waiver_request', { text: 'Y' }], ['middle_name', { text: '' }]]) };
    for (const [answers, headers] of [[{ counselor_waiver_request: 'N' }, {}], [{ counselor_waiver_request: 'N', middle_name: 'Lee' }, base], [{ counselor_waiver_request: '' }, base]] as const) {
      const refused = await put(answers, headers);
      expect([refused.statusCode, refused.json()]).toEqual([409, { message: recommenderMessages.waiverBound }]);
    }
    // Said again as it is, it saves with the rest.
    expect((await put({ counselor_waiver_request: 'Y', middle_name: 'Lee' }, base)).statusCode).toBe(200);
    const [row] = await t.database.db.select({ answer: applications.answer, userId: applications.userId }).from(applications).innerJoin(users, eq(users.id, applications.userId)).where(eq(users.username, 'bound-waiver@example.com'));
    expect(row!.answer).toMatchObject({ counselor_waiver_request: 'Y', middle_name: 'Lee' });

    // Submitted: a decider's correction does not take it back either.
    await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, row!.userId));
    const decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    const correction = await as(decider)('POST', `/staff/api/applications/${row!.userId}/corrections`, { key: 'counselor_waiver_request', value: 'N', reason: 'The applicant asked.' });
    expect([correction.statusCode, correction.json()]).toEqual([409, { message: correctionMessages.waiverBound }]);
    // Whatever the stored answer says (a row changed by hand), the letter asked under the waiver stays hidden.
    await t.database.db.update(applications).set({ answer: { ...row!.answer, counselor_waiver_request: 'N' } }).where(eq(applications.userId, row!.userId));
    const [mine] = (await as(cookie)('GET', '/api/recommenders')).json().recommenders;
    expect(mine).toMatchObject({ status: 'submitted', waived: true, letter: false });
    const hidden = await as(cookie)('GET', `/api/recommenders/${mine.id}/letter`);
    expect([hidden.statusCode, hidden.json()]).toEqual([403, { message: recommenderMessages.letterHidden }]);
    // Its link, sent again by the office's records, still tells the recommender what they were told.
    const [stored] = await t.database.db.select({ waived: recommenders.waived }).from(recommenders).where(eq(recommenders.email, 'bound@school.example'));
    expect(stored!.waived).toBe(true);
  });

  it('frees the waiver once the requests made under it are withdrawn; a request made without it stays readable after a later waiver', async () => {
    const cookie = await signedInCookie(t, 'freed-waiver@example.com');
    const put = (answers: object) => t.app.inject({ method: 'PUT', url: '/api/answer', payload: answers, headers: { cookie } });
    expect((await put({ first_name: 'Ana', last_name: 'Silva', counselor_waiver_request: 'N' })).statusCode).toBe(200);
    const open = await invite(cookie, { role: 'teacher', name: 'Ann Cho', email: 'open-letter@school.example' });
    expect(open.mail!.text).toContain('they may read your letter');
    expect((await put({ counselor_waiver_request: 'Y' })).statusCode).toBe(200);
    const waived = await invite(cookie, { role: 'counselor', name: 'Pat Lee', email: 'waived-letter@school.example' });
    expect(waived.mail!.text).toContain('they will not read your letter');
    expect((await put({ counselor_waiver_request: 'N' })).statusCode).toBe(409);
    expect((await as(cookie)('DELETE', `/api/recommenders/${waived.response.json().id}`)).statusCode).toBe(204);
    expect((await put({ counselor_waiver_request: 'N' })).statusCode).toBe(200);
    // The first request was made without a waiver: its letter is the applicant's, and a resend says so again.
    expect((await put({ counselor_waiver_request: 'Y' })).statusCode).toBe(200);
    expect((await as(cookie)('POST', `/api/recommenders/${open.response.json().id}/resend`)).statusCode).toBe(200);
    expect(t.sent.filter((each) => each.to === 'open-letter@school.example').at(-1)!.text).toContain('they may read your letter');
    expect((await recommend(tokenIn(t.sent.filter((each) => each.to === 'open-letter@school.example').at(-1)!.text), files.pdf, 'letter.pdf', 'application/pdf')).statusCode).toBe(202);
    await settled(tokenIn(t.sent.filter((each) => each.to === 'open-letter@school.example').at(-1)!.text));
    const mine = (await as(cookie)('GET', '/api/recommenders')).json().recommenders.find((each: { email: string }) => each.email === 'open-letter@school.example');
    expect(mine).toMatchObject({ waived: false, letter: true });
    expect((await as(cookie)('GET', `/api/recommenders/${mine.id}/letter`)).statusCode).toBe(200);
  });

  it('refuses a link that was replaced, withdrawn or expired, each with its own words; a resend makes a new link', async () => {
    const { cookie } = await applicant('links@example.com', true);
    const first = await invite(cookie, { role: 'teacher', name: 'Lee Park', email: 'lee@school.example' });
    const id = first.response.json().id;
    expect((await as(cookie)('POST', `/api/recommenders/${id}/resend`)).statusCode).toBe(200);
    const second = tokenIn(t.sent.filter((mail) => mail.to === 'lee@school.example').at(-1)!.text);
    expect(second).not.toBe(first.token);
    expect((await pub('GET', `/public/recommendation?token=${first.token}`)).json()).toEqual({ message: recommenderMessages.linkInvalid });
    expect((await pub('GET', `/public/recommendation?token=${second}`)).statusCode).toBe(200);
    // Another link's upload is not this one's to send.
    const other = await invite(cookie, { role: 'counselor', name: 'Kim Doe', email: 'kim@school.example' });
    const policy = (await pub('POST', `/public/recommendation/upload?token=${other.token}`, { content_type: 'application/pdf' })).json();
    const stolen = await pub('POST', `/public/recommendation?token=${second}`, { relationship: 'Teacher', known_for: '1 to 2 years', ratings, file_key: policy.fields.key, file_name: 'x.pdf' });
    expect(stolen.statusCode).toBe(403);
    const own = (await pub('POST', `/public/recommendation/upload?token=${second}`, { content_type: 'application/pdf' })).json();
    const wrongType = await pub('POST', `/public/recommendation?token=${second}`, { relationship: 'Teacher', known_for: '1 to 2 years', ratings, file_key: own.fields.key, file_name: 'x.exe' });
    expect([wrongType.statusCode, wrongType.json()]).toEqual([415, { message: fileMessages.wrongType }]);

    expect((await as(cookie)('DELETE', `/api/recommenders/${id}`)).statusCode).toBe(204);
    const withdrawn = await pub('GET', `/public/recommendation?token=${second}`);
    expect([withdrawn.statusCode, withdrawn.json()]).toEqual([410, { message: recommenderMessages.linkWithdrawn }]);
    expect((await as(cookie)('GET', '/api/recommenders')).json().recommenders.map((r: { name: string }) => r.name)).toEqual(['Kim Doe']);

    await t.database.db.update(recommenders).set({ expiresAt: new Date(clock.now().getTime() - 1000) }).where(eq(recommenders.email, 'kim@school.example'));
    const expired = await pub('GET', `/public/recommendation?token=${other.token}`);
    expect([expired.statusCode, expired.json()]).toEqual([410, { message: recommenderMessages.linkExpired }]);
  });

  it('refuses an invitation that is incomplete, to the applicant, twice to one person or beyond one counselor and two teachers; limits mail per applicant and per address', async () => {
    const { cookie } = await applicant('limits@example.com', true);
    expect((await invite(cookie, { role: 'principal', name: 'P', email: 'p@school.example' })).response.statusCode).toBe(400);
    const bad = await invite(cookie, { role: 'teacher', name: ' ', email: 'not-an-address' });
    expect(bad.response.json().errors).toEqual({ name: [recommenderMessages.nameRequired], email: [recommenderMessages.emailInvalid] });
    expect((await invite(cookie, { role: 'teacher', name: 'Me', email: 'LIMITS@example.com' })).response.json().errors).toEqual({ email: [recommenderMessages.notYourself] });
    expect((await invite(cookie, { role: 'teacher', name: 'A', email: 'a@school.example' })).response.statusCode).toBe(201);
    expect((await invite(cookie, { role: 'teacher', name: 'A again', email: 'a@school.example' })).response.json()).toEqual({ message: recommenderMessages.alreadyAsked, errors: { email: [recommenderMessages.alreadyAsked] } });
    expect((await invite(cookie, { role: 'teacher', name: 'B', email: 'b@school.example' })).response.statusCode).toBe(201);
    const third = await invite(cookie, { role: 'teacher', name: 'C', email: 'c@school.example' });
    expect([third.response.statusCode, third.response.json()]).toEqual([409, { message: recommenderMessages.tooMany }]);
    expect(third.mail).toBeUndefined();

    // One address asked by many applicants: three requests a day, then refused with the time to wait.
    for (const n of [1, 2, 3]) expect((await invite((await applicant(`many-${n}@example.com`, true)).cookie, { role: 'counselor', name: 'Busy', email: 'busy@school.example' })).response.statusCode).toBe(201);
    const fourth = await invite((await applicant('many-4@example.com', true)).cookie, { role: 'counselor', name: 'Busy', email: 'busy@school.example' });
    expect([fourth.response.statusCode, fourth.response.json()]).toEqual([429, { message: TOO_MANY_ATTEMPTS }]);
    expect(Number(fourth.response.headers['retry-after'])).toBeGreaterThan(0);
    expect(t.sent.filter((mail) => mail.to === 'busy@school.example')).toHaveLength(3);
  });

  it('shows the applicant their checklist and takes a file for an item they may send, refusing the others', async () => {
    const { cookie, id } = await applicant('my-checklist@example.com', true);
    await t.database.db.update(applications).set({ answer: { ...completeApplication, citizenship_type: 'N' } }).where(eq(applications.userId, id));
    const list = (await as(cookie)('GET', '/api/checklist')).json();
    expect(list.items.map((item: { key: string; from: string }) => `${item.key}:${item.from}`)).toEqual(['transcript:school', 'counselor_recommendation:recommender', 'teacher_recommendation:recommender', 'english_proficiency:applicant']);
    const refused = await as(cookie)('POST', '/api/checklist/transcript/upload', { content_type: 'application/pdf' });
    expect([refused.statusCode, refused.json()]).toEqual([403, { message: checklistMessages.notYoursToSend }]);
    const policy = (await as(cookie)('POST', '/api/checklist/english_proficiency/upload', { content_type: 'application/pdf' })).json();
    const form = new FormData();
    for (const [field, value] of Object.entries(policy.fields as Record<string, string>)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(files.pdf)], { type: 'application/pdf' }), 'toefl.pdf');
    expect((await t.app.inject({ method: 'POST', url: '/upload', payload: form })).statusCode).toBe(204);
    expect((await as(cookie)('POST', '/api/checklist/english_proficiency/materials', { file_key: policy.fields.key, file_name: 'toefl.exe' })).json()).toEqual({ message: fileMessages.wrongType });
    const sent = await as(cookie)('POST', '/api/checklist/english_proficiency/materials', { file_key: policy.fields.key, file_name: 'toefl.pdf' });
    expect([sent.statusCode, sent.json()]).toEqual([202, { file_name: 'toefl.pdf', status: 'unprocessed', message: null }]);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const item = (await as(cookie)('GET', '/api/checklist')).json().items.at(-1);
      if (item.status === 'received') {
        expect(item.files).toEqual([{ file_name: 'toefl.pdf', status: 'completed', message: null }]);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the file was never received');
  });

  it('has no checklist before submission; asks recommenders before it once the waiver question is answered', async () => {
    const cookie = await signedInCookie(t, 'draft-checklist@example.com');
    expect((await as(cookie)('GET', '/api/checklist')).json()).toEqual({ message: checklistMessages.notSubmitted });
    const early = await invite(cookie, { role: 'teacher', name: 'Early Bird', email: 'early@school.example' });
    expect([early.response.statusCode, early.response.json()]).toEqual([409, { message: recommenderMessages.waiverFirst }]);
    expect((await as(cookie)('PUT', '/api/answer', { counselor_waiver_request: 'N' })).statusCode).toBe(200);
    expect((await invite(cookie, { role: 'teacher', name: 'Early Bird', email: 'early@school.example' })).response.statusCode).toBe(201);
  });

  it('reminds the applicant of what is awaited once a week from a week after submission, never when switched off or complete', async () => {
    const { id } = await applicant('remind-me@example.com', true);
    await t.database.db.update(applications).set({ submittedAt: new Date(clock.now().getTime() - 6 * 86_400_000) }).where(eq(applications.userId, id));
    await refreshChecklist(t.database.db, id, PORTAL_ACTOR);
    const mails: Mail[] = [];
    const deps = { db: t.database.db, mailer: { kind: 'outbox' as const, send: async (sent: Mail) => void mails.push(sent) }, publicUrl: 'https://portal.example', log: () => {} };
    const mine = () => mails.filter((sent) => sent.to === 'remind-me@example.com');
    const day = 86_400_000;
    try {
      await sendMaterialReminders(deps);
      expect(mine()).toEqual([]); // six days after submission: not yet
      clock.advance(day);
      await sendMaterialReminders(deps);
      expect(mine()).toHaveLength(1);
      expect(mine()[0]!.subject).toBe('Your application: materials still awaited');
      expect(mine()[0]!.text).toContain('We are still waiting for: High-school transcript; Counselor recommendation; Teacher recommendation.');
      expect(mine()[0]!.text).toContain('https://portal.example/completion');
      clock.advance(6 * day);
      await sendMaterialReminders(deps);
      expect(mine()).toHaveLength(1); // at most once a week
      clock.advance(day);
      await sendMaterialReminders(deps);
      expect(mine()).toHaveLength(2);

      // A week on, the session has ended: signed in again.
      const again = cookieHeader(await t.app.inject({ method: 'POST', url: '/public/login', payload: { username: 'remind-me@example.com', password: TEST_PASSWORD } }));
      expect((await as(again)('GET', '/api/checklist')).json().reminders).toBe(true);
      expect((await as(again)('PUT', '/api/checklist/reminders', { enabled: false })).json()).toEqual({ enabled: false });
      expect((await as(again)('GET', '/api/checklist')).json().reminders).toBe(false);
      clock.advance(8 * day);
      await sendMaterialReminders(deps);
      expect(mine()).toHaveLength(2);

      // Switched on again, but nothing is awaited any more: no reminder.
      await t.database.db.update(materialReminders).set({ off: false }).where(eq(materialReminders.userId, id));
      await t.database.db.insert(checklistMarks).values(['transcript', 'counselor_recommendation', 'teacher_recommendation'].map((itemKey) => ({ userId: id, itemKey, status: 'received' as const, byEmail: 'mailroom@example.edu', at: clock.now() })));
      await refreshChecklist(t.database.db, id, PORTAL_ACTOR);
      clock.advance(8 * day);
      await sendMaterialReminders(deps);
      expect(mine()).toHaveLength(2);
    } finally {
      clock.advance(-24 * day);
    }
  });

  it('sends a reminder the mail server did not take again after its lease, with the same Message-ID; one refused for good waits a week (issue 49, item 5)', async () => {
    const { id } = await applicant('remind-again@example.com', true);
    const day = 86_400_000;
    await t.database.db.update(applications).set({ submittedAt: new Date(clock.now().getTime() - 8 * day) }).where(eq(applications.userId, id));
    await refreshChecklist(t.database.db, id, PORTAL_ACTOR);
    const taken: Mail[] = [];
    let refuse: null | { responseCode: number } = { responseCode: 421 };
    const mailer = {
      kind: 'outbox' as const,
      send: async (sent: Mail) => {
        if (sent.to !== 'remind-again@example.com') return;
        if (refuse) throw Object.assign(new Error('mail server says no'), refuse);
        taken.push(sent);
      },
    };
    const deps = { db: t.database.db, mailer, publicUrl: 'https://portal.example', log: () => {} };
    const now = clock.now().getTime();
    // Out (421, try later): claimed, not sent; within the lease no other sweep takes it.
    await sendMaterialReminders(deps, 200, new Date(now));
    await sendMaterialReminders(deps, 200, new Date(now + REMINDER_LEASE_MS - 1000));
    refuse = null;
    await sendMaterialReminders(deps, 200, new Date(now + REMINDER_LEASE_MS - 1000));
    expect(taken).toEqual([]);
    // After it: sent, with the Message-ID this week's reminder has each time it is sent.
    await sendMaterialReminders(deps, 200, new Date(now + REMINDER_LEASE_MS + 1000));
    expect(taken.map((sent) => sent.messageId)).toEqual([`<material-reminder.${id}.0@portal.example>`]);
    // Confirmed: not again this week, even past another lease.
    await sendMaterialReminders(deps, 200, new Date(now + 3 * REMINDER_LEASE_MS));
    expect(taken).toHaveLength(1);
    // Next week's is a new mail (its own Message-ID); refused for good (550), it is not retried within the week.
    refuse = { responseCode: 550 };
    await sendMaterialReminders(deps, 200, new Date(now + 8 * day));
    refuse = null;
    await sendMaterialReminders(deps, 200, new Date(now + 8 * day + 3 * REMINDER_LEASE_MS));
    expect(taken).toHaveLength(1);
    await sendMaterialReminders(deps, 200, new Date(now + 16 * day));
    expect(taken).toHaveLength(2);
    expect(taken[1]!.messageId).toMatch(new RegExp(`^<material-reminder\\.${id}\\.\\d{13}@portal\\.example>$`));
    expect(taken[1]!.messageId).not.toBe(taken[0]!.messageId);
  });
});
