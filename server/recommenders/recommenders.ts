import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import { checklistMessages } from '../../domain/checklist';
import { MAX_FILE_BYTES } from '../../domain/config';
import { fileMessages } from '../../domain/messages';
import {
  invitationErrors,
  invitationMail,
  ITEM_OF_ROLE,
  RECOMMENDER_LINK_DAYS,
  RECOMMENDERS_PER_ROLE,
  recommendationErrors,
  recommenderMessages,
  waivedByAnswers,
  waiverAnswered,
  type RecommenderRole,
} from '../../domain/recommenders';
import { longDateUtc } from '../../domain/rules/formats';
import { contentTypeOfName } from '../../domain/rules/files';
import type { components } from '../../generated/api';
import { mail } from '../office/mail';
import { sendPdfDownload } from '../http/download';
import { HttpError } from '../http/errors';
import { signedIn, type Handler, type Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { randomToken, sha256 } from '../infra/crypto';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import type { Mailer } from '../infra/mail';
import type { Storage } from '../infra/storage';
import { assertWithinLimits, type Limit } from '../infra/rateLimit';
import { applications, materials, recommenders, users } from '../infra/schema';
import { downloadNameOf } from '../office/downloadName';
import { checklistWithFiles, materialPrefix } from '../office/checklist';
import { remindersOn } from './reminders';

type Recommender = components['schemas']['Recommender'];
type RecommenderRow = typeof recommenders.$inferSelect;

export interface RecommenderDeps {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  /** How long a signed upload may take (tests shorten it). */
  uploadWindowSeconds?: number;
  mailer: Mailer;
  publicUrl: string;
  rateLimitScale: number;
}

const DAY = 86_400;
/** The invitation form sends mail to addresses the applicant types: bounded per applicant and per address. */
const limits = {
  perApplicant: { max: 10, windowSeconds: DAY },
  perAddress: { max: 3, windowSeconds: DAY },
  perRecommender: { max: 3, windowSeconds: DAY },
  /** A link's calls, per client: a recommender opens, uploads and sends a few times. */
  perClient: { max: 60, windowSeconds: 60 },
  /** The applicant's own uploads after submission. */
  uploads: { max: 30, windowSeconds: DAY },
} satisfies Record<string, Limit>;

const recommenderOf = (row: RecommenderRow, letter: boolean): Recommender => ({
  id: row.id,
  role: row.role,
  name: row.name,
  email: row.email,
  // Withdrawn requests are never listed: the narrowing is for the type only.
  status: row.status === 'withdrawn' ? 'sent' : row.status,
  sent_at: row.sentAt.toISOString(),
  waived: row.waived,
  opened_at: row.openedAt?.toISOString() ?? null,
  submitted_at: row.submittedAt?.toISOString() ?? null,
  letter,
});

/** The applicant's name as answered (first and last), or their address before they typed one. */
async function applicantOf(deps: RecommenderDeps, userId: string) {
  const [row] = await deps.db.select({ answer: applications.answer, submittedAt: applications.submittedAt, username: users.username }).from(users).leftJoin(applications, eq(applications.userId, users.id)).where(eq(users.id, userId));
  const answer = row?.answer ?? {};
  const name = [answer.first_name, answer.last_name].filter((part) => typeof part === 'string' && part.trim()).join(' ');
  return { name: name || row?.username || '', username: row?.username ?? '', answer, submittedAt: row?.submittedAt ?? null };
}

/** A new link: its token (e-mailed, never stored), and what the row keeps of it. */
function newLink() {
  const token = randomToken();
  const sentAt = clock.now();
  return { token, kept: { tokenHash: sha256(token), expiresAt: new Date(sentAt.getTime() + RECOMMENDER_LINK_DAYS * DAY * 1000), sentAt } };
}

/** E-mails the recommender their link, saying whether the applicant may read the letter. */
async function mailLink(deps: RecommenderDeps, row: RecommenderRow, token: string, log: { error: (error: unknown, message: string) => void }) {
  const applicant = await applicantOf(deps, row.userId);
  const words = invitationMail({
    recommenderName: row.name,
    applicantName: applicant.name,
    role: row.role,
    // What the request was made under, on a resend too: the waiver binds it, whatever the answer says now.
    waived: row.waived,
    link: `${deps.publicUrl}/recommend?token=${token}`,
    expiresOn: longDateUtc(row.expiresAt),
  });
  // The request stands even when the mail fails: the applicant sees it and can send it again.
  await deps.mailer.send(mail(row.email, words.subject, words.paragraphs)).catch((error: unknown) => log.error(error, `recommendation request to ${row.email} failed`));
}

/** Which of the applicant's recommenders have a converted letter. */
async function lettersIn(deps: RecommenderDeps, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await deps.db.select({ id: materials.recommenderId }).from(materials).where(and(inArray(materials.recommenderId, ids), eq(materials.status, 'completed')));
  return new Set(rows.map((row) => row.id!));
}

type LinkRefusal = { status: 404 | 409 | 410; message: string };

/** The request a recommender's link is for, or why the link is refused. */
async function requestOfLink(deps: RecommenderDeps, token: string): Promise<{ row: RecommenderRow } | LinkRefusal> {
  const [row] = await deps.db.select().from(recommenders).where(eq(recommenders.tokenHash, sha256(token)));
  if (!row) return { status: 404, message: recommenderMessages.linkInvalid };
  if (row.status === 'withdrawn') return { status: 410, message: recommenderMessages.linkWithdrawn };
  if (row.status === 'submitted') return { status: 409, message: recommenderMessages.linkUsed };
  if (row.expiresAt <= clock.now()) return { status: 410, message: recommenderMessages.linkExpired };
  // Read after the row: a letter converted in between uses the link up as surely as the status does.
  if ((await latestLetter(deps, row.id))?.status === 'completed') return { status: 409, message: recommenderMessages.linkUsed };
  return { row };
}

/** The latest letter a recommender sent, as the recommender page shows it. */
async function latestLetter(deps: RecommenderDeps, recommenderId: string) {
  const [row] = await deps.db.select().from(materials).where(eq(materials.recommenderId, recommenderId)).orderBy(desc(materials.createdAt)).limit(1);
  return row ? { file_name: row.fileName, status: row.status, message: row.message } : null;
}

/** Every file a recommender sent lives under this prefix, named for them: another link's upload is not theirs to send. */
const letterPrefix = (row: Pick<RecommenderRow, 'userId' | 'role' | 'id'>) => `${materialPrefix(row.userId, ITEM_OF_ROLE[row.role])}r-${row.id}-`;

export function recommenderHandlers(deps: RecommenderDeps) {
  const { db } = deps;
  const limitsOf = (checks: [string, Limit][]) => assertWithinLimits(db, checks, deps.rateLimitScale);

  /** The link's request for a public call, after the client's limit; throws the refusal. */
  async function linkRequest(token: string, ip: string) {
    await limitsOf([[`recommendation:client:${ip}`, limits.perClient]]);
    const found = await requestOfLink(deps, token);
    if ('message' in found) throw new HttpError(found.status, found.message);
    return found.row;
  }

  async function recommendationRequestOf(row: RecommenderRow) {
    const applicant = await applicantOf(deps, row.userId);
    return { applicant_name: applicant.name, recommender_name: row.name, role: row.role, waived: row.waived, letter: await latestLetter(deps, row.id) };
  }

  const mine = async (userId: string, id: string) => (await db.select().from(recommenders).where(and(eq(recommenders.id, id), eq(recommenders.userId, userId), ne(recommenders.status, 'withdrawn'))))[0];

  /** Whether a letter from them is in or on its way: such a request is not withdrawn or sent again. */
  async function letterSent(id: string) {
    const [row] = await db.select({ id: materials.id }).from(materials).where(and(eq(materials.recommenderId, id), ne(materials.status, 'failed'))).limit(1);
    return Boolean(row);
  }

  const sendRecommendation: Handler<'sendRecommendation'> = async (request, reply) => {
    const row = await linkRequest(request.query.token, request.ip);
    const { relationship, known_for, ratings, file_key, file_name } = request.body;
    const errors = recommendationErrors({ relationship, known_for, ratings, hasLetter: Boolean(file_key && file_name) });
    if (Object.keys(errors).length) throw new HttpError(400, 'Please check the highlighted fields.', { errors });
    if (!file_key.startsWith(letterPrefix(row)) || file_key.includes('..')) throw new HttpError(403, recommenderMessages.linkInvalid);
    if (!contentTypeOfName(file_name)) throw new HttpError(415, fileMessages.wrongType);
    const letter = await latestLetter(deps, row.id);
    if (letter && (letter.status === 'unprocessed' || letter.status === 'in_progress')) throw new HttpError(409, recommenderMessages.converting);
    const [material] = await db.transaction(async (tx) => {
      await tx.update(recommenders).set({ answers: { relationship: relationship.trim(), known_for, ratings } }).where(eq(recommenders.id, row.id));
      return tx
        .insert(materials)
        .values({ userId: row.userId, itemKey: ITEM_OF_ROLE[row.role], fileKey: file_key, fileName: file_name, byEmail: row.email, createdAt: clock.now(), source: 'recommender', recommenderId: row.id })
        .returning({ id: materials.id });
    });
    await deps.jobs.send('convert-material', { materialId: material!.id });
    return reply.code(202).send(await recommendationRequestOf(row));
  };

  return {
    listMyRecommenders: signedIn<'listMyRecommenders'>(async (_request, reply, { userId }) => {
      const [rows, applicant] = await Promise.all([db.select().from(recommenders).where(and(eq(recommenders.userId, userId), ne(recommenders.status, 'withdrawn'))).orderBy(asc(recommenders.role), asc(recommenders.name), asc(recommenders.id)), applicantOf(deps, userId)]);
      // Each letter follows the request it answers: one asked under the waiver is never the applicant's to read.
      const letters = await lettersIn(deps, rows.filter((row) => !row.waived).map((row) => row.id));
      return reply.code(200).send({ waived: waivedByAnswers(applicant.answer), recommenders: rows.map((row) => recommenderOf(row, letters.has(row.id))) });
    }),

    inviteRecommender: signedIn<'inviteRecommender'>(async (request, reply, { userId, username }) => {
      const errors = invitationErrors(request.body, username);
      if (Object.keys(errors).length) throw new HttpError(400, 'Please check the highlighted fields.', { errors });
      const role = request.body.role as RecommenderRole;
      const email = request.body.email.trim().toLowerCase();
      // The mail tells the recommender whether the applicant may read the letter: that is answered first.
      if (!waiverAnswered((await applicantOf(deps, userId)).answer)) throw new HttpError(409, recommenderMessages.waiverFirst);
      const asked = await db.select().from(recommenders).where(and(eq(recommenders.userId, userId), ne(recommenders.status, 'withdrawn')));
      if (asked.some((row) => row.email === email)) throw new HttpError(409, recommenderMessages.alreadyAsked, { errors: { email: [recommenderMessages.alreadyAsked] } });
      if (asked.filter((row) => row.role === role).length >= RECOMMENDERS_PER_ROLE[role]) throw new HttpError(409, recommenderMessages.tooMany);
      await limitsOf([
        [`recommender-invite:applicant:${userId}`, limits.perApplicant],
        [`recommender-invite:address:${email}`, limits.perAddress],
      ]);
      const link = newLink();
      // The waiver is read again under the application's lock, as a save taking it back decides
      // (server/application/answers.ts): the request is bound to the answer its mail tells.
      const row = await db.transaction(async (tx) => {
        const [application] = await tx.select({ answer: applications.answer }).from(applications).where(eq(applications.userId, userId)).for('update');
        const answer = application?.answer ?? {};
        if (!waiverAnswered(answer)) return null;
        const [inserted] = await tx.insert(recommenders).values({ userId, role, name: request.body.name.trim(), email, status: 'sent', waived: waivedByAnswers(answer), ...link.kept }).returning();
        return inserted!;
      });
      if (!row) throw new HttpError(409, recommenderMessages.waiverFirst);
      await mailLink(deps, row, link.token, request.log);
      return reply.code(201).send(recommenderOf(row, false));
    }),

    resendRecommender: signedIn<'resendRecommender'>(async (request, reply, { userId }) => {
      const row = await mine(userId, request.params.recommender);
      if (!row) throw new HttpError(404, recommenderMessages.notFound);
      if (row.status === 'submitted' || (await letterSent(row.id))) throw new HttpError(409, recommenderMessages.alreadySubmitted);
      await limitsOf([
        [`recommender-resend:${row.id}`, limits.perRecommender],
        [`recommender-invite:applicant:${userId}`, limits.perApplicant],
        [`recommender-invite:address:${row.email}`, limits.perAddress],
      ]);
      // A new link: the one sent before stops working.
      const link = newLink();
      const [updated] = await db.update(recommenders).set(link.kept).where(eq(recommenders.id, row.id)).returning();
      await mailLink(deps, updated!, link.token, request.log);
      return reply.code(200).send(recommenderOf(updated!, false));
    }),

    withdrawRecommender: signedIn<'withdrawRecommender'>(async (request, reply, { userId }) => {
      const row = await mine(userId, request.params.recommender);
      if (!row) throw new HttpError(404, recommenderMessages.notFound);
      if (row.status === 'submitted' || (await letterSent(row.id))) throw new HttpError(409, recommenderMessages.alreadySubmitted);
      await db.update(recommenders).set({ status: 'withdrawn' }).where(eq(recommenders.id, row.id));
      return reply.code(204).send();
    }),

    downloadMyRecommendation: signedIn<'downloadMyRecommendation'>(async (request, reply, { userId }) => {
      const row = await mine(userId, request.params.recommender);
      if (!row) throw new HttpError(404, recommenderMessages.notFound);
      // The waiver the request was made under governs, whatever the answer says now (FERPA: it binds the letter).
      if (row.waived) throw new HttpError(403, recommenderMessages.letterHidden);
      const [letter] = await db.select().from(materials).where(and(eq(materials.recommenderId, row.id), eq(materials.status, 'completed'))).orderBy(desc(materials.createdAt)).limit(1);
      const bytes = letter?.pdfKey ? await deps.storage.get(letter.pdfKey) : null;
      if (!bytes) throw new HttpError(404, recommenderMessages.letterNotYet);
      return sendPdfDownload(reply, bytes, await downloadNameOf(db, userId, `Recommendation ${row.name}`));
    }),

    getMyChecklist: signedIn<'getMyChecklist'>(async (_request, reply, { userId }) => {
      const applicant = await applicantOf(deps, userId);
      const list = await checklistWithFiles(db, { userId, answer: applicant.answer, submittedAt: applicant.submittedAt });
      if (!list) throw new HttpError(409, checklistMessages.notSubmitted);
      return reply.code(200).send({
        complete: list.complete,
        reminders: await remindersOn(db, userId),
        // Who marked what and why is the office's; the applicant sees where each item stands and their own files.
        items: list.items.map((item) => ({
          key: item.key,
          label: item.label,
          status: item.status,
          from: item.from,
          files: item.files.filter((file) => file.source === 'applicant').map((file) => ({ file_name: file.fileName, status: file.status, message: file.message })),
        })),
      });
    }),

    presignMyMaterialUpload: signedIn<'presignMyMaterialUpload'>(async (request, reply, { userId }) => {
      await myItem(userId, request.params.key);
      await limitsOf([[`my-materials:${userId}`, limits.uploads]]);
      const post = await deps.storage.presignPost({
        key: `${materialPrefix(userId, request.params.key)}a-${randomToken(12)}`,
        owner: userId,
        contentType: request.body.content_type,
        maxBytes: MAX_FILE_BYTES,
        expiresInSeconds: deps.uploadWindowSeconds ?? 600,
      });
      return reply.code(200).send(post);
    }),

    attachMyMaterial: signedIn<'attachMyMaterial'>(async (request, reply, { userId, username }) => {
      const { key } = request.params;
      const { file_key, file_name } = request.body;
      await myItem(userId, key);
      if (!file_key.startsWith(`${materialPrefix(userId, key)}a-`) || file_key.includes('..')) throw new HttpError(403, checklistMessages.materialNotFound);
      if (!contentTypeOfName(file_name)) throw new HttpError(415, fileMessages.wrongType);
      const [row] = await db.insert(materials).values({ userId, itemKey: key, fileKey: file_key, fileName: file_name, byEmail: username, createdAt: clock.now(), source: 'applicant' }).returning();
      await deps.jobs.send('convert-material', { materialId: row!.id });
      return reply.code(202).send({ file_name: row!.fileName, status: row!.status, message: row!.message });
    }),

    openRecommendation: async (request, reply) => {
      const row = await linkRequest(request.query.token, request.ip);
      if (row.status === 'sent') await db.update(recommenders).set({ status: 'opened', openedAt: clock.now() }).where(eq(recommenders.id, row.id));
      return reply.code(200).send(await recommendationRequestOf(row));
    },

    presignRecommendationUpload: async (request, reply) => {
      const row = await linkRequest(request.query.token, request.ip);
      const post = await deps.storage.presignPost({
        key: `${letterPrefix(row)}${randomToken(12)}`,
        owner: row.userId,
        contentType: request.body.content_type,
        maxBytes: MAX_FILE_BYTES,
        expiresInSeconds: deps.uploadWindowSeconds ?? 600,
      });
      return reply.code(200).send(post);
    },

    sendRecommendation,
  } satisfies Handlers;

  /** Throws unless `key` is on the applicant's submitted checklist and theirs to send. */
  async function myItem(userId: string, key: string) {
    const applicant = await applicantOf(deps, userId);
    const list = await checklistWithFiles(db, { userId, answer: applicant.answer, submittedAt: applicant.submittedAt });
    if (!list) throw new HttpError(409, checklistMessages.notSubmitted);
    const item = list.items.find((each) => each.key === key);
    if (!item) throw new HttpError(404, checklistMessages.notOnChecklist);
    if (item.from !== 'applicant') throw new HttpError(403, checklistMessages.notYoursToSend);
  }
}
