import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { staffMessages } from '../../domain/staff';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications, assignments, conflicts, staffUsers } from '../infra/schema';
import { recordAudit } from './audit';
import { contractRoute } from './refusals';
import { staffCall } from './sessions';
import { hookFor } from '../http/hookFor';
import { HttpError } from '../http/errors';
import { routeParam } from '../http/paths';

/** The calls on one application (`/staff/api/applications/:id…`) but declaring a conflict itself. */
const ONE_APPLICATION = /^\/staff\/api\/applications\/:id(?!\/conflict$)/;

/** A filter for a few named rows: only applications the member has no conflict of interest with (`applicationId`: the column, `a.user_id` by default). */
export const notConflicted = (staffId: string, applicationId: SQL = sql`a.user_id`): SQL =>
  sql`not exists (select 1 from ${conflicts} c where c.user_id = ${applicationId} and c.staff_id = ${staffId})`;

/**
 * The same filter for a whole list and its counts: the member's conflicts (a handful) are read
 * first and named. As an anti-join, the planner checked every row of a count against them (empty
 * or not) instead of counting from the list's index: 200 of the 205 ms of the staff list's first
 * page at 100,000 applications (issue 33).
 */
export async function notConflictedList(db: Db, staffId: string, applicationId: SQL = sql`a.user_id`): Promise<SQL> {
  const declared = await db.select({ userId: conflicts.userId }).from(conflicts).where(eq(conflicts.staffId, staffId));
  if (declared.length === 0) return sql`true`;
  // A Postgres array literal of ids read from the database (uuids: nothing to escape).
  return sql`not (${applicationId} = any(${`{${declared.map((row) => row.userId).join(',')}}`}::uuid[]))`;
}

/** The ids among `ids` the member declared a conflict with. */
export async function conflictedAmong(db: Db, staffId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ userId: conflicts.userId }).from(conflicts).where(and(eq(conflicts.staffId, staffId), inArray(conflicts.userId, [...ids])));
  return new Set(rows.map((row) => row.userId));
}

/**
 * Every call on one application answers 404 with the reason to a member who declared a conflict
 * of interest with it: the application is never shown to them, whatever the call (issue 30).
 */
export function registerConflictGuard(app: FastifyInstance, db: Db) {
  const idOf = (request: FastifyRequest) => routeParam(request, 'id');
  app.addHook('preHandler', hookFor((request) => request.staff !== null && !!idOf(request) && ONE_APPLICATION.test(request.routeOptions.url ?? ''), async (request) => {
    const staff = request.staff!;
    const id = idOf(request)!;
    const [found] = await db.select({ userId: conflicts.userId }).from(conflicts).where(and(eq(conflicts.staffId, staff.staffId), eq(conflicts.userId, id)));
    if (!found) return;
    // Refused for a conflict of interest: on the record, as a refused attempt.
    await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'access_refused', applicationId: id, detail: { call: `${request.method} ${contractRoute(request.routeOptions.url ?? '')}`, status: 404, reason: 'conflict of interest' }, ip: request.ip });
    throw new HttpError(404, staffMessages.conflicted);
  }));
}

export function conflictHandlers(db: Db) {
  return {
    declareConflict: staffCall<'declareConflict'>('reader', async (request, reply, staff) => {
      const userId = request.params.id;
      const reason = request.body.reason?.trim() || null;
      const declared = await db.transaction(async (tx) => {
        const [application] = await tx.select({ userId: applications.userId }).from(applications).where(eq(applications.userId, userId));
        if (!application) return false;
        const [row] = await tx.insert(conflicts).values({ userId, staffId: staff.staffId, reason, declaredAt: clock.now() }).onConflictDoNothing().returning();
        if (row) {
          // Never assigned nor shown from now on: an open assignment leaves their queue (a signed review stays).
          await tx.delete(assignments).where(and(eq(assignments.userId, userId), eq(assignments.staffId, staff.staffId), isNull(assignments.reviewedAt)));
          await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'conflict_declare', applicationId: userId, detail: { reason }, ip: request.ip });
        }
        return true;
      });
      if (!declared) throw new HttpError(404, staffMessages.applicationNotFound);
      return reply.code(204).send();
    }),

    withdrawConflict: staffCall<'withdrawConflict'>('admin', async (request, reply, staff) => {
      const { id: userId, staff_id: memberId } = request.params;
      const withdrawn = await db.transaction(async (tx) => {
        const [row] = await tx
          .delete(conflicts)
          .where(and(eq(conflicts.userId, userId), eq(conflicts.staffId, memberId)))
          .returning({ staffId: conflicts.staffId });
        if (!row) return false;
        const [member] = await tx.select({ email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, memberId));
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'conflict_withdraw', applicationId: userId, detail: { member: member?.email ?? memberId }, ip: request.ip });
        return true;
      });
      if (!withdrawn) throw new HttpError(404, staffMessages.conflictNotFound);
      return reply.code(204).send();
    }),

    listConflicts: staffCall<'listConflicts'>('admin', async (request, reply, staff) => {
      const rows = await db
        .select({
          applicationId: conflicts.userId,
          name: sql<string>`concat_ws(' ', nullif(${applications.answer}->>'first_name', ''), nullif(${applications.answer}->>'last_name', ''))`,
          staffId: conflicts.staffId,
          staffEmail: staffUsers.email,
          reason: conflicts.reason,
          declaredAt: conflicts.declaredAt,
        })
        .from(conflicts)
        .innerJoin(staffUsers, eq(staffUsers.id, conflicts.staffId))
        .innerJoin(applications, eq(applications.userId, conflicts.userId))
        // An administrator's own conflicts hold this door too: those applications' conflicts are another administrator's to list and withdraw (issue 49, item 4).
        .where(notConflicted(staff.staffId, sql`${conflicts.userId}`))
        .orderBy(desc(conflicts.declaredAt))
        // The newest 100: as many ids as one audit entry holds (a longer list would be paged).
        .limit(100);
      // It names the applications: recorded as a list page is, with the ids it showed.
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'applications_list', detail: { list: 'conflicts', ids: rows.map((row) => row.applicationId) }, ip: request.ip });
      return reply.code(200).send(
        rows.map((row) => ({
          application_id: row.applicationId,
          name: row.name || '(no name yet)',
          staff_id: row.staffId,
          staff_email: row.staffEmail,
          reason: row.reason,
          declared_at: row.declaredAt.toISOString(),
        })),
      );
    }),
  } satisfies Handlers;
}
