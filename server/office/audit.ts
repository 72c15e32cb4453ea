import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { auditLog, conflicts, exportRunApplicants, users } from '../infra/schema';
import { staffCall } from './sessions';

type AuditAction = components['schemas']['AuditAction'];

export interface AuditEntry {
  staff: { id: string | null; email: string };
  action: AuditAction;
  applicationId?: string | null;
  detail?: Record<string, string | number | null | string[]>;
  ip: string;
}

/** Appends one entry to the record of disclosures (the table takes inserts only). */
export const recordAudit = (db: Db, entry: AuditEntry): Promise<void> => recordAudits(db, [entry]);

/** Entries written per statement when one act touches thousands of applications (a release). */
const AUDIT_CHUNK = 1000;

/** Appends many entries, a thousand per statement (recordAudit's bulk form: a release of 10,000). */
export async function recordAudits(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += AUDIT_CHUNK) {
    await db.insert(auditLog).values(
      entries.slice(i, i + AUDIT_CHUNK).map((entry) => ({
        staffId: entry.staff.id,
        staffEmail: entry.staff.email,
        action: entry.action,
        applicationId: entry.applicationId ?? null,
        detail: entry.detail ?? {},
        ip: entry.ip,
      })),
    );
  }
}

const AUDIT_PAGE_SIZE = 50;

/** An entry's detail with the ids of applications in `conflicted` taken out of its `ids`. */
function withoutConflicted(detail: NonNullable<AuditEntry['detail']>, conflicted: ReadonlySet<string>): NonNullable<AuditEntry['detail']> {
  const ids = detail.ids;
  if (conflicted.size === 0 || !Array.isArray(ids)) return detail;
  return { ...detail, ids: ids.filter((id) => !conflicted.has(id)) };
}

export function auditHandlers(db: Db) {
  return {
    getAuditLog: staffCall<'getAuditLog'>('admin', async (request, reply, reader) => {
      const { action, staff, application, page = 1 } = request.query;
      const filters: SQL[] = [];
      if (action) filters.push(eq(auditLog.action, action));
      if (staff) filters.push(eq(auditLog.staffEmail, staff.trim().toLowerCase()));
      // One application's record: its own views and downloads, and each list page that showed it.
      // An export run counts too: the applicants it carried are on its record (issue 32).
      if (application)
        filters.push(
          or(
            eq(auditLog.applicationId, application),
            sql`${auditLog.detail} -> 'ids' ? ${application}`,
            sql`(${auditLog.action} in ('export', 'export_run', 'export_download') and exists (select 1 from ${exportRunApplicants} r where r.run_id = (${auditLog.detail} ->> 'run')::int and r.user_id = ${application}))`,
          )!,
        );
      // Reading the record is on the record (issue 29, item 8), before a page of it is sent.
      await recordAudit(db, { staff: { id: reader.staffId, email: reader.email }, action: 'audit_view', detail: { action: action ?? null, staff: staff ?? null, application: application ?? null, page }, ip: request.ip });
      // The conflict door holds in the record of disclosures too (issue 49, item 4): no entry on an
      // application the reader of the log declared a conflict with, and no such id in a list's `ids`.
      const conflicted = new Set((await db.select({ userId: conflicts.userId }).from(conflicts).where(eq(conflicts.staffId, reader.staffId))).map((row) => row.userId));
      // (conflicts.ts's filter, written here: that file records its refusals through this one.)
      if (conflicted.size) filters.push(or(isNull(auditLog.applicationId), sql`not exists (select 1 from ${conflicts} c where c.user_id = ${auditLog.applicationId} and c.staff_id = ${reader.staffId})`)!);
      const where = filters.length ? and(...filters) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({ entry: auditLog, applicantEmail: users.username })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.applicationId))
          .where(where)
          .orderBy(desc(auditLog.id))
          .limit(AUDIT_PAGE_SIZE)
          .offset((page - 1) * AUDIT_PAGE_SIZE),
        db.select({ n: count() }).from(auditLog).where(where),
      ]);
      return reply.code(200).send({
        total: total?.n ?? 0,
        page,
        page_size: AUDIT_PAGE_SIZE,
        items: rows.map(({ entry, applicantEmail }) => ({
          id: entry.id,
          at: entry.at.toISOString(),
          staff_email: entry.staffEmail,
          action: entry.action as AuditAction,
          application_id: entry.applicationId,
          applicant_email: applicantEmail,
          detail: withoutConflicted(entry.detail ?? {}, conflicted),
          ip: entry.ip,
        })),
      });
    }),
  } satisfies Handlers;
}
