import type { FastifyBaseLogger } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { documentKeys } from '../../domain/catalogue';
import { ANSWERED, MAX_FILE_BYTES } from '../../domain/config';
import { APPLICATION_CANCELLED_MESSAGE, APPLICATION_FROZEN_MESSAGE, fileMessages } from '../../domain/messages';
import { contentTypeOfName } from '../../domain/rules/files';
import { HttpError } from '../http/errors';
import { signedIn, type Handlers } from '../http/handler';
import { randomToken } from '../infra/crypto';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { applications, documents } from '../infra/schema';
import { documentAnswersOf } from '../office/applicationView';
import { conversionFailure, convertUpload } from '../files/convert';
import type { Storage } from '../infra/storage';

export const documentMessages = {
  unknownField: 'There is no such document question.',
  notYours: 'This file does not belong to your application.',
  noDocument: 'There is no file for this question.',
  deleted: 'Your file was deleted.',
  conversionDeleted: 'The converted file was deleted.',
} as const;

/** The document questions of the catalogue (student_upload_card, additional_info_doc, …). */
const isDocumentKey = (key: string) => documentKeys.includes(key);

/** Every upload of a user for a question lives under this prefix; nothing else is accepted. */
const uploadPrefix = (userId: string, answerKey: string) => `uploads/${userId}/${answerKey}/`;

export interface DocumentDeps {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  chromiumPath: string;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** 409 when the application takes no change of its files: submitted, or cancelled by the office at the applicant's request (issue 51). */
async function refuseWhenClosed(db: Db, userId: string): Promise<void> {
  const [row] = await db.select({ submittedAt: applications.submittedAt, withdrawnAt: applications.withdrawnAt }).from(applications).where(eq(applications.userId, userId));
  if (row?.submittedAt) throw new HttpError(409, APPLICATION_FROZEN_MESSAGE);
  if (row?.withdrawnAt) throw new HttpError(409, APPLICATION_CANCELLED_MESSAGE);
}

/** Sets or removes the document's mark in the answers, so that required checks see the upload. */
async function markAnswer(db: Db, userId: string, answerKey: string, answered: boolean) {
  await db.insert(applications).values({ userId }).onConflictDoNothing();
  await db
    .update(applications)
    .set({
      answer: answered
        ? sql`${applications.answer} || jsonb_build_object(${answerKey}::text, ${ANSWERED}::text)`
        : sql`${applications.answer} - ${answerKey}::text`,
      updatedAt: new Date(),
    })
    .where(and(eq(applications.userId, userId), sql`${applications.submittedAt} is null`));
}

/** Removes a document row with its original and converted files. */
async function removeDocument(deps: DocumentDeps, row: typeof documents.$inferSelect) {
  await deps.db.delete(documents).where(eq(documents.id, row.id));
  await Promise.all([deps.storage.delete(row.fileKey), row.pdfKey ? deps.storage.delete(row.pdfKey) : undefined]);
  await markAnswer(deps.db, row.userId, row.answerKey, false);
}

/** The job handler, run in the web process by default or by `npm run worker`, registered by the root. */
export async function registerDocumentWorker(jobs: Jobs, deps: DocumentDeps): Promise<void> {
  await jobs.work('convert-document', (data) => convertDocument(deps, data.documentId!));
}

/** The conversion job: unprocessed → in_progress → completed | failed (with a message). */
async function convertDocument(deps: DocumentDeps, documentId: string): Promise<void> {
  const { db, storage } = deps;
  const [row] = await db.update(documents).set({ status: 'in_progress', updatedAt: new Date() }).where(eq(documents.id, documentId)).returning();
  if (!row) return; // deleted before its turn
  try {
    const { pdfKey, size } = await convertUpload(deps, row, `converted/${row.userId}/${row.answerKey}/`);
    const [done] = await db
      .update(documents)
      .set({ status: 'completed', fileSize: size, pdfKey, message: null, updatedAt: new Date() })
      .where(eq(documents.id, documentId))
      .returning();
    if (!done) {
      await storage.delete(pdfKey); // deleted while converting
      return;
    }
    await markAnswer(db, row.userId, row.answerKey, true);
  } catch (error) {
    await db.update(documents).set({ status: 'failed', message: conversionFailure(error, deps.log), updatedAt: new Date() }).where(eq(documents.id, documentId));
  }
}

export function documentHandlers(deps: DocumentDeps & { uploadWindowSeconds?: number }) {
  const { db, storage } = deps;
  const rowOf = async (userId: string, answerKey: string) =>
    (await db.select().from(documents).where(and(eq(documents.userId, userId), eq(documents.answerKey, answerKey))))[0];

  /** Deletes the question's file (both delete calls do the same); throws 404 or 409. */
  async function deleteDocumentOf(userId: string, key: string) {
    if (!isDocumentKey(key)) throw new HttpError(404, documentMessages.unknownField);
    const row = await rowOf(userId, key);
    if (!row) throw new HttpError(404, documentMessages.noDocument);
    await refuseWhenClosed(db, userId);
    await removeDocument(deps, row);
  }

  return {
    createPresignedUpload: signedIn<'createPresignedUpload'>(async (request, reply, { userId }) => {
      const { answer_key, content_type } = request.body;
      if (!isDocumentKey(answer_key)) throw new HttpError(404, documentMessages.unknownField);
      await refuseWhenClosed(db, userId);
      const post = await storage.presignPost({
        key: `${uploadPrefix(userId, answer_key)}${randomToken(12)}`,
        owner: userId,
        contentType: content_type,
        maxBytes: MAX_FILE_BYTES,
        expiresInSeconds: deps.uploadWindowSeconds ?? 600,
      });
      return reply.code(200).send(post);
    }),

    startDocumentConversion: signedIn<'startDocumentConversion'>(async (request, reply, { userId }) => {
      const { key } = request.params;
      const { file_key, file_name } = request.body;
      if (!isDocumentKey(key)) throw new HttpError(404, documentMessages.unknownField);
      if (!file_key.startsWith(uploadPrefix(userId, key)) || file_key.includes('..')) throw new HttpError(403, documentMessages.notYours);
      if (!contentTypeOfName(file_name)) throw new HttpError(415, fileMessages.wrongType);
      await refuseWhenClosed(db, userId);
      // A new upload replaces the question's previous file.
      const previous = await rowOf(userId, key);
      if (previous) await removeDocument(deps, previous);
      const [row] = await db.insert(documents).values({ userId, answerKey: key, fileKey: file_key, fileName: file_name }).returning({ id: documents.id });
      await deps.jobs.send('convert-document', { documentId: row!.id });
      return reply.code(202).send({ status: 'unprocessed' });
    }),

    getDocumentConversion: signedIn<'getDocumentConversion'>(async (request, reply, { userId }) => {
      const { key } = request.params;
      if (!isDocumentKey(key)) throw new HttpError(404, documentMessages.unknownField);
      const row = await rowOf(userId, key);
      if (!row) return reply.code(200).send({ status: 'not_answered' });
      return reply.code(200).send(row.message ? { status: row.status, message: row.message } : { status: row.status });
    }),

    deleteDocumentConversion: signedIn<'deleteDocumentConversion'>(async (request, reply, { userId }) => {
      await deleteDocumentOf(userId, request.params.key);
      return reply.code(200).send({ message: documentMessages.conversionDeleted });
    }),
    deleteDocumentAnswer: signedIn<'deleteDocumentAnswer'>(async (request, reply, { userId }) => {
      await deleteDocumentOf(userId, request.params.key);
      return reply.code(200).send({ message: documentMessages.deleted });
    }),

    getDocumentAnswers: signedIn<'getDocumentAnswers'>(async (_request, reply, { userId }) => reply.code(200).send(await documentAnswersOf(db, userId))),
  } satisfies Handlers;
}
