/**
 * The application as every view of it reads it: the print view, the PDF copy, the office's reader
 * and the applicant's own documents. One read, in the ground floor, so no area reaches into another for it.
 */
import { and, eq } from 'drizzle-orm';
import type { components } from '../../generated/api';
import type { Db } from '../infra/db';
import { applications, documents, users } from '../infra/schema';

/** The completed uploads of a user as the contract's DocumentAnswers map. */
export async function documentAnswersOf(db: Db, userId: string): Promise<Record<string, { file_name: string; file_size: number }>> {
  const rows = await db
    .select({ answerKey: documents.answerKey, fileName: documents.fileName, fileSize: documents.fileSize })
    .from(documents)
    .where(and(eq(documents.userId, userId), eq(documents.status, 'completed')));
  return Object.fromEntries(rows.map((row) => [row.answerKey, { file_name: row.fileName, file_size: row.fileSize ?? 0 }]));
}

type ServiceView = components['schemas']['ServiceView'];

/** One application as the print view reads it (null when the account is gone). */
export async function serviceViewOf(db: Db, userId: string): Promise<ServiceView | null> {
  const [[user], [application], documentAnswer] = await Promise.all([
    db.select({ username: users.username }).from(users).where(eq(users.id, userId)),
    db.select().from(applications).where(eq(applications.userId, userId)),
    documentAnswersOf(db, userId),
  ]);
  if (!user) return null;
  return {
    username: user.username,
    application_number: application?.applicationNumber ?? null,
    submitted_at: application?.submittedAt?.toISOString() ?? null,
    answer: application?.answer ?? {},
    add_another: application?.addAnother ?? {},
    document_answer: documentAnswer,
    tabs: application?.tabs ?? {},
  };
}

