import { eq, sql } from 'drizzle-orm';
import { downloadFileName } from '../../domain/applicant';
import { fieldByKey } from '../../domain/catalogue';
import type { Db } from '../infra/db';
import { applications } from '../infra/schema';

/** `Lastname_Firstname_<number>_<what>.pdf` for one applicant's download (domain/applicant.ts). */
export async function downloadNameOf(db: Db, userId: string, what: string): Promise<string> {
  const [row] = await db
    .select({
      first_name: sql<string | null>`${applications.answer}->>'first_name'`,
      last_name: sql<string | null>`${applications.answer}->>'last_name'`,
      number: applications.applicationNumber,
    })
    .from(applications)
    .where(eq(applications.userId, userId));
  return downloadFileName({ first_name: row?.first_name ?? null, last_name: row?.last_name ?? null }, row?.number ?? null, what);
}

/** The PDF copy's `<what>` in its download name. */
export const APPLICATION_DOCUMENT_NAME = 'Application';

/** The question a document answers, as the form names it: a tab group's title, else the field's label. */
export function questionOf(answerKey: string): string {
  const field = fieldByKey.get(answerKey);
  if (!field) return answerKey;
  return field.group.tabs ? field.group.title : field.label;
}
