/**
 * A person's request (issue 32): everything the portal holds about one applicant, as a zip, and
 * the erasure of their records. Erasure removes the account (every table that names it goes with
 * it: answers, documents, decisions, reviews, notes, recommenders, corrections), withdraws the
 * export runs whose files carried them, and queues their files and folders for removal, all in one
 * transaction with its audit entries; the files go after the commit, or by the worker's sweep
 * after a crash (issue 49). What the audit log must keep stays: its entries name the application
 * by id only, and an export run's record keeps the ids it carried. Retention erases through the
 * same function.
 */
import { PassThrough, Readable } from 'node:stream';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import { applicantFolders, LATE_UPLOAD_MS, purgeQueued, queuePurges } from '../infra/purge';
import { clock } from '../infra/clock';
import { Pacer } from '../infra/pace';
import type { Storage } from '../infra/storage';
import { rowsOf, type Db } from '../infra/db';
import {
  answerCorrections,
  applicationNotes,
  applications,
  assignments,
  auditLog,
  checklistMarks,
  decisions,
  documents,
  exportRunApplicants,
  exportRuns,
  letterPdfs,
  logins,
  materials,
  outbox,
  pdfCopies,
  recommenders,
  reviews,
  users,
  webStatusEvents,
} from '../infra/schema';
import { recordAudits, type AuditEntry } from '../office/audit';

interface HeldFile {
  key: string;
  /** Its path in the person's zip. */
  path: string;
  /** A recommender's letter asked under the applicant's waiver: never given to the applicant (issue 49). */
  waived: boolean;
}

/**
 * Every stored file of the applicants `owner` picks (a condition on `user_id`): uploads and their
 * PDFs, materials, the PDF copy, the letter. One definition for the person's zip, the erasure and
 * retention's dry run, so what the dry run counts is what an erasure removes.
 */
export const heldFilesSql = (owner: SQL) => sql`
  select user_id, kind, name, key, waived from (
    select user_id, 'documents/' || answer_key as kind, file_name as name, file_key as key, false as waived from ${documents}
    union all select user_id, 'documents/' || answer_key || '-pdf', file_name || '.pdf', pdf_key, false from ${documents}
    union all select m.user_id, 'materials/' || m.item_key, m.file_name, m.file_key, coalesce(r.waived, false) from ${materials} m left join ${recommenders} r on r.id = m.recommender_id
    union all select m.user_id, 'materials/' || m.item_key || '-pdf', m.file_name || '.pdf', m.pdf_key, coalesce(r.waived, false) from ${materials} m left join ${recommenders} r on r.id = m.recommender_id
    union all select user_id, 'application-copy', 'application.pdf', pdf_key, false from ${pdfCopies}
    union all select user_id, 'decision-letter', 'letter.pdf', pdf_key, false from ${letterPdfs}
  ) held where key is not null and ${owner}`;

/** Every stored file of one applicant, with its path in the person's zip. */
async function filesOf(db: Db, userId: string): Promise<HeldFile[]> {
  const rows = rowsOf<{ kind: string; name: string; key: string; waived: boolean }>(await db.execute(heldFilesSql(sql`user_id = ${userId}`)));
  return rows.map((row, i) => ({ key: row.key, waived: row.waived, path: `files/${i + 1}-${row.kind.replace(/[^A-Za-z0-9_/-]/g, '_')}-${row.name.replace(/[^\p{L}\p{N}._ -]/gu, '_')}` }));
}

/** Everything held about one applicant, as plain data (no password hash, no token). Null when there is no such applicant. */
async function recordOf(db: Db, userId: string) {
  const [account] = await db.select({ id: users.id, email: users.username, createdAt: users.createdAt, confirmedAt: users.confirmedAt }).from(users).where(eq(users.id, userId));
  if (!account) return null;
  const of = <T>(rows: Promise<T[]>) => rows;
  const [application, statuses, signIns, documentRows, materialRows, decision, marks, asked, readers, reviewRows, notes, corrections, exportsCarried, auditEntries] = await Promise.all([
    of(db.select({ number: applications.applicationNumber, status: applications.status, submittedAt: applications.submittedAt, updatedAt: applications.updatedAt, answer: applications.answer, lastPage: applications.lastPage }).from(applications).where(eq(applications.userId, userId))),
    of(db.select({ status: webStatusEvents.webStatus, at: webStatusEvents.createdAt }).from(webStatusEvents).where(eq(webStatusEvents.userId, userId))),
    of(db.select({ at: logins.createdAt }).from(logins).where(eq(logins.userId, userId))),
    of(db.select({ id: documents.id, question: documents.answerKey, fileName: documents.fileName, status: documents.status, at: documents.createdAt }).from(documents).where(eq(documents.userId, userId))),
    of(db.select({ id: materials.id, item: materials.itemKey, fileName: materials.fileName, source: materials.source, by: materials.byEmail, at: materials.createdAt }).from(materials).where(eq(materials.userId, userId))),
    of(db.select({ decision: decisions.decision, decidedBy: decisions.decidedByEmail, decidedAt: decisions.decidedAt, releaseAt: decisions.releaseAt, reply: decisions.reply, repliedAt: decisions.repliedAt }).from(decisions).where(eq(decisions.userId, userId))),
    of(db.select().from(checklistMarks).where(eq(checklistMarks.userId, userId))),
    of(db.select({ role: recommenders.role, name: recommenders.name, email: recommenders.email, status: recommenders.status, waived: recommenders.waived, answers: recommenders.answers }).from(recommenders).where(eq(recommenders.userId, userId))),
    of(db.select({ reader: assignments.staffId, assignedAt: assignments.assignedAt, reviewedAt: assignments.reviewedAt }).from(assignments).where(eq(assignments.userId, userId))),
    of(db.select({ reviewer: reviews.reviewerEmail, ratings: reviews.ratings, recommendation: reviews.recommendation, comment: reviews.comment, at: reviews.submittedAt }).from(reviews).where(eq(reviews.userId, userId))),
    of(db.select({ author: applicationNotes.authorEmail, text: applicationNotes.text, at: applicationNotes.createdAt }).from(applicationNotes).where(eq(applicationNotes.userId, userId))),
    of(db.select().from(answerCorrections).where(eq(answerCorrections.userId, userId))),
    of(db.select({ run: exportRuns.id, template: exportRuns.templateName, at: exportRuns.startedAt, by: exportRuns.startedBy }).from(exportRunApplicants).innerJoin(exportRuns, eq(exportRuns.id, exportRunApplicants.runId)).where(eq(exportRunApplicants.userId, userId))),
    of(db.select({ at: auditLog.at, by: auditLog.staffEmail, action: auditLog.action, detail: auditLog.detail }).from(auditLog).where(eq(auditLog.applicationId, userId))),
  ]);
  return {
    account,
    application: application[0] ?? null,
    statuses,
    signIns,
    documents: documentRows,
    materials: materialRows,
    decision: decision[0] ?? null,
    checklistMarks: marks,
    // A recommender asked under the waiver wrote for the office alone: their ratings are withheld as their letter is.
    recommenders: asked.map(({ waived, answers, ...recommender }) => (waived ? { ...recommender, waived, answers: null } : { ...recommender, waived, answers })),
    withheld: asked.some((recommender) => recommender.waived) ? WITHHELD : [],
    assignments: readers,
    reviews: reviewRows,
    notes,
    corrections,
    exportsThatCarriedThem: exportsCarried,
    whoReadOrChangedTheRecord: auditEntries,
  };
}

/** What the person's zip leaves out, and why: its manifest says so (issue 49, item 8). */
const WITHHELD = [
  'Letters and ratings from recommenders asked while the applicant had waived the right to see them (FERPA): the recommenders were told the applicant would not read them, so they are not in this record. The office holds them.',
];

/**
 * The person's zip: `record.json`, then every file held, each opened when the zip reaches it; a
 * letter asked under the waiver is left out and `record.json` says so. Null when there is no such applicant.
 */
export async function personArchive(deps: { db: Db; storage: Storage }, userId: string): Promise<{ stream: Readable; email: string; files: number } | null> {
  const record = await recordOf(deps.db, userId);
  if (!record) return null;
  const files = (await filesOf(deps.db, userId)).filter((file) => !file.waived);
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(record, null, 2)), 'record.json');
  for (const file of files) {
    zip.addReadStreamLazy(file.path, (done) => {
      deps.storage.stream(file.key).then(
        (source) => done(null, source ?? Readable.from([Buffer.from('This file is no longer in storage.\n')])),
        (error: unknown) => done(error, Readable.from([])),
      );
    });
  }
  zip.end();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  zip.on('error', (error: Error) => out.destroy(error));
  return { stream: out, email: record.account.email, files: files.length };
}

/** What names the person in text: their address and names as typed, the longest first (a full name before its parts). */
function identifyingTexts(email: string, answer: Record<string, unknown>): string {
  const names = ['first_name', 'middle_name', 'last_name', 'preferred_name'].map((key) => answer[key]).filter((value): value is string => typeof value === 'string' && value.trim().length > 1).map((value) => value.trim());
  const full = [[answer.first_name, answer.last_name], [answer.preferred_name, answer.last_name]].map((parts) => parts.filter((part) => typeof part === 'string' && part.trim()).map((part) => String(part).trim()).join(' ')).filter((name) => name.includes(' '));
  const texts = [...new Set([email, ...full, ...names])].sort((a, b) => b.length - a.length);
  // A Postgres array literal: each element quoted, quotes and backslashes escaped.
  return `{${texts.map((text) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/**
 * Erases applicants, one transaction each: their account (and with it every row that names it),
 * the mail waiting to go to them, the export runs that carried them (withdrawn), the audit
 * entries, and their files and folders queued for removal; the files go after the commit (the
 * worker's sweep finishes what a crash left). Answers how many accounts and files went.
 */
/** What an erasure needs; withdrawing the export runs that carried the person is the exports' (server/exports/withdraw.ts), given by the root. */
export interface ErasureDeps {
  db: Db;
  storage: Storage;
  log?: (error: unknown, message: string) => void;
  /** Withdraws, in the erasure's transaction, the export runs that carried any of these applicants; answers them. */
  withdrawRunsCarrying: (tx: Db, userIds: readonly string[]) => Promise<{ id: number; templateName: string }[]>;
}

export async function eraseApplicants(deps: ErasureDeps, userIds: readonly string[], audit: (userId: string, files: number) => AuditEntry): Promise<{ applicants: number; files: number }> {
  let applicants = 0;
  let removedFiles = 0;
  // Retention erases thousands at once: at half the machine (pace.ts), the applicants saving meanwhile first.
  const pacer = new Pacer();
  for (const userId of userIds) {
    await pacer.breathe();
    const erased = await deps.db.transaction(async (tx) => {
      const files = await filesOf(tx, userId);
      const [answers] = await tx.select({ answer: applications.answer }).from(applications).where(eq(applications.userId, userId));
      const [account] = await tx.delete(users).where(eq(users.id, userId)).returning({ email: users.username });
      if (!account) return null;
      await tx.delete(outbox).where(eq(outbox.to, account.email));
      const entry = audit(userId, files.length);
      const withdrawn = await deps.withdrawRunsCarrying(tx, [userId]);
      const keys = [...files.map((file) => file.key), ...applicantFolders(userId)];
      await queuePurges(tx, keys, `erasure of ${userId}`);
      // Again once an upload signed before now can no longer land (a file without its record otherwise).
      await queuePurges(tx, applicantFolders(userId), `late uploads of ${userId}`, new Date(clock.now().getTime() + LATE_UPLOAD_MS));
      await recordAudits(tx, [entry, ...withdrawn.map((run) => ({ staff: entry.staff, action: 'export_run_withdraw' as const, applicationId: userId, detail: { run: run.id, template: run.templateName }, ip: entry.ip }))]);
      // The entries stay (they are the record); the person's e-mail and names in them become their id (issue 49, item 11).
      await tx.execute(sql`select audit_log_redact(${userId}::uuid, ${identifyingTexts(account.email, answers?.answer ?? {})}::text[], ${`applicant:${userId}`})`);
      return { files: files.length, keys };
    });
    if (!erased) continue;
    applicants++;
    removedFiles += erased.files;
    // After the commit; a key whose removal fails stays queued for the sweep, and is logged.
    await purgeQueued(deps, erased.keys);
  }
  // The withdrawn runs' files too (queued by the same transactions).
  await purgeQueued(deps);
  return { applicants, files: removedFiles };
}

/** Applications of the given entry terms (for retention), in batches. */
export async function applicationsOfTerms(db: Db, terms: readonly string[]): Promise<string[]> {
  if (terms.length === 0) return [];
  const rows = await db.select({ userId: applications.userId }).from(applications).where(inArray(applications.entryTerm, [...terms]));
  return rows.map((row) => row.userId);
}
