import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { assignmentSkipped, binNotEmpty, planAssignments, reviewMessages } from '../../domain/reviews';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications, assignments, bins, conflicts, reviews, staffUsers } from '../infra/schema';
import { recordAudit, recordAudits, type AuditEntry } from '../office/audit';
import { staffCall } from '../office/sessions';
import { notConflicted } from '../office/conflicts';
import { HttpError } from '../http/errors';

type BinList = components['schemas']['BinList'];
type Assignment = components['schemas']['Assignment'];

/** The bins in order with how many applications each holds, and how many submitted ones are in none; withdrawn ones are not counted (issue 51). */
async function binList(db: Db): Promise<BinList> {
  const [rows, [unplaced]] = await Promise.all([
    db
      .select({ id: bins.id, name: bins.name, blind: bins.blind, receives_complete: bins.receivesComplete, count: sql<number>`(select count(*)::int from ${applications} a where a.bin_id = ${bins.id} and a.withdrawn_at is null)` })
      .from(bins)
      .orderBy(asc(bins.position), asc(bins.id)),
    db.select({ n: count() }).from(applications).where(and(isNull(applications.binId), isNotNull(applications.submittedAt), isNull(applications.withdrawnAt))),
  ]);
  return { unplaced: Number(unplaced?.n ?? 0), bins: rows.map((row) => ({ ...row, count: Number(row.count) })) };
}

/** The bin an application is in, and the readers it was given to. */
export async function placementOf(db: Db, userId: string): Promise<{ bin: { id: number; name: string; blind: boolean } | null; assignments: Assignment[] }> {
  const [[placed], given] = await Promise.all([
    db.select({ id: bins.id, name: bins.name, blind: bins.blind }).from(applications).innerJoin(bins, eq(bins.id, applications.binId)).where(eq(applications.userId, userId)),
    db
      .select({ staffId: assignments.staffId, email: staffUsers.email, assignedAt: assignments.assignedAt, reviewedAt: assignments.reviewedAt })
      .from(assignments)
      .innerJoin(staffUsers, eq(staffUsers.id, assignments.staffId))
      .where(eq(assignments.userId, userId))
      .orderBy(asc(assignments.assignedAt)),
  ]);
  return {
    bin: placed ?? null,
    assignments: given.map((row) => ({ staff_id: row.staffId, staff_email: row.email, assigned_at: row.assignedAt.toISOString(), reviewed_at: row.reviewedAt?.toISOString() ?? null })),
  };
}

/** A staff member's load: the applications given them and not yet reviewed, withdrawn ones aside (issue 51). */
const openAssignments = sql<number>`(select count(*)::int from ${assignments} g join ${applications} a on a.user_id = g.user_id where g.staff_id = ${staffUsers.id} and g.reviewed_at is null and a.withdrawn_at is null)`;

export function workflowHandlers(db: Db) {
  return {
    // Counts only, no applicant's data: not a disclosure, so not in the audit log.
    listBins: staffCall<'listBins'>('reader', async (_request, reply) => reply.code(200).send(await binList(db))),

    setBins: staffCall<'setBins'>('admin', async (request, reply, staff) => {
      const wanted = request.body.bins.map((bin) => ({ ...bin, name: bin.name.trim(), receives_complete: bin.receives_complete ?? false }));
      if (new Set(wanted.map((bin) => bin.name.toLowerCase())).size !== wanted.length) {
        throw new HttpError(400, reviewMessages.binNameRepeated, { errors: { bins: [reviewMessages.binNameRepeated] } });
      }
      if (wanted.filter((bin) => bin.receives_complete).length > 1) throw new HttpError(400, reviewMessages.oneCompleteBin, { errors: { bins: [reviewMessages.oneCompleteBin] } });
      await db.transaction(async (tx) => {
        const current = await tx.select().from(bins).for('update');
        const known = new Set(current.map((bin) => bin.id));
        const keptIds = wanted.flatMap((bin) => (bin.id === undefined ? [] : [bin.id]));
        // An unknown bin, or one listed twice: the list was not read from the current bins.
        if (keptIds.some((id) => !known.has(id)) || new Set(keptIds).size !== keptIds.length) throw new HttpError(400, reviewMessages.binNotFound);
        const kept = new Set(keptIds);
        const removed = current.filter((bin) => !kept.has(bin.id));
        for (const bin of removed) {
          const [held] = await tx.select({ n: count() }).from(applications).where(eq(applications.binId, bin.id));
          if (Number(held!.n) > 0) throw new HttpError(409, binNotEmpty(bin.name, Number(held!.n)));
        }
        if (removed.length) await tx.delete(bins).where(inArray(bins.id, removed.map((bin) => bin.id)));
        // Names are unique, and one bin at most receives complete applications: the kept bins are
        // first given names longer than any typed (60) and receive none, so a swap goes through.
        for (const bin of current.filter((bin) => kept.has(bin.id))) await tx.update(bins).set({ name: `${bin.id}:${'-'.repeat(60)}`, receivesComplete: false }).where(eq(bins.id, bin.id));
        for (const [index, bin] of wanted.entries()) {
          const values = { name: bin.name, blind: bin.blind, receivesComplete: bin.receives_complete, position: index + 1 };
          if (bin.id === undefined) await tx.insert(bins).values(values);
          else await tx.update(bins).set(values).where(eq(bins.id, bin.id));
        }
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'bins_change', detail: { bins: wanted.map((bin) => bin.name), complete_bin: wanted.find((bin) => bin.receives_complete)?.name ?? null }, ip: request.ip });
      });
      return reply.code(200).send(await binList(db));
    }),

    moveApplications: staffCall<'moveApplications'>('decider', async (request, reply, staff) => {
      const ids = [...new Set(request.body.application_ids)];
      const binId = request.body.bin_id;
      const outcome = await db.transaction(async (tx) => {
        const [target] = binId === null ? [null] : await tx.select().from(bins).where(eq(bins.id, binId));
        if (target === undefined) throw new HttpError(404, reviewMessages.binNotFound);
        // The member's conflicts are not theirs to move: those ids are as unknown to them as any other.
        const found = await tx
          .select({ userId: applications.userId, from: bins.name, fromId: applications.binId })
          .from(applications)
          .leftJoin(bins, eq(bins.id, applications.binId))
          .where(and(inArray(applications.userId, ids), notConflicted(staff.staffId, sql`${applications.userId}`)))
          .for('update', { of: applications });
        if (found.length !== ids.length) throw new HttpError(404, reviewMessages.applicationsNotFound);
        const moving = found.filter((row) => row.fromId !== binId);
        if (moving.length) {
          await tx.update(applications).set({ binId }).where(inArray(applications.userId, moving.map((row) => row.userId)));
          await recordAudits(
            tx,
            moving.map((row): AuditEntry => ({ staff: { id: staff.staffId, email: staff.email }, action: 'bin_move', applicationId: row.userId, detail: { from: row.from, to: target?.name ?? null }, ip: request.ip })),
          );
        }
        return { moved: moving.length };
      });
      return reply.code(200).send({ moved: outcome.moved });
    }),

    // Staff e-mails and counts, no applicant's data: not in the audit log.
    listReaders: staffCall<'listReaders'>('decider', async (_request, reply) => {
      const rows = await db
        .select({
          id: staffUsers.id,
          email: staffUsers.email,
          role: staffUsers.role,
          open: openAssignments,
        })
        .from(staffUsers)
        .where(isNotNull(staffUsers.activatedAt))
        .orderBy(asc(staffUsers.email));
      return reply.code(200).send(rows.map((row) => ({ ...row, open: Number(row.open) })));
    }),

    assignApplications: staffCall<'assignApplications'>('decider', async (request, reply, staff) => {
      const ids = [...new Set(request.body.application_ids)];
      const readerIds = [...new Set(request.body.reader_ids)];
      const outcome = await db.transaction(async (tx) => {
        // Locked so two share-outs at once read each other's loads.
        const readers = await tx
          .select({ id: staffUsers.id, email: staffUsers.email, open: openAssignments })
          .from(staffUsers)
          .where(and(inArray(staffUsers.id, readerIds), isNotNull(staffUsers.activatedAt)))
          .for('update', { of: staffUsers });
        if (readers.length !== readerIds.length) throw new HttpError(404, reviewMessages.readerNotFound);
        const found = await tx
          .select({ userId: applications.userId })
          .from(applications)
          .where(and(inArray(applications.userId, ids), notConflicted(staff.staffId, sql`${applications.userId}`)));
        if (found.length !== ids.length) throw new HttpError(404, reviewMessages.applicationsNotFound);
        // Who may not be given each: a conflict declared, a review signed, an assignment held.
        const [conflicted, reviewed, held] = await Promise.all([
          tx.select({ userId: conflicts.userId, staffId: conflicts.staffId }).from(conflicts).where(and(inArray(conflicts.userId, ids), inArray(conflicts.staffId, readerIds))),
          tx.select({ userId: reviews.userId, staffId: reviews.staffId }).from(reviews).where(and(inArray(reviews.userId, ids), inArray(reviews.staffId, readerIds))),
          tx.select({ userId: assignments.userId, staffId: assignments.staffId }).from(assignments).where(and(inArray(assignments.userId, ids), inArray(assignments.staffId, readerIds))),
        ]);
        const excluded = new Map(ids.map((id) => [id, new Set<string>()]));
        for (const row of [...conflicted, ...reviewed, ...held]) if (row.staffId) excluded.get(row.userId)!.add(row.staffId);
        // A file a reader holds and has not reviewed goes to a second reader only when asked (issue 51 §4).
        const holders = request.body.second_reader
          ? new Map<string, string>()
          : new Map(
              (
                await tx
                  .select({ userId: assignments.userId, email: staffUsers.email })
                  .from(assignments)
                  .innerJoin(staffUsers, eq(staffUsers.id, assignments.staffId))
                  .where(and(inArray(assignments.userId, ids), isNull(assignments.reviewedAt)))
              ).map((row) => [row.userId, row.email]),
            );
        // Readers in the order the decider listed them: ties go to the first.
        const ordered = readerIds.map((id) => readers.find((reader) => reader.id === id)!).map((reader) => ({ id: reader.id, open: Number(reader.open) }));
        const plan = planAssignments(ids.filter((id) => !holders.has(id)).map((id) => ({ id, excluded: excluded.get(id)! })), ordered);
        const now = clock.now();
        const emailOf = new Map(readers.map((reader) => [reader.id, reader.email]));
        if (plan.assigned.length) {
          await tx.insert(assignments).values(plan.assigned.map((a) => ({ userId: a.applicationId, staffId: a.readerId, assignedByEmail: staff.email, assignedAt: now })));
          await recordAudits(
            tx,
            plan.assigned.map((a): AuditEntry => ({ staff: { id: staff.staffId, email: staff.email }, action: 'assign', applicationId: a.applicationId, detail: { member: emailOf.get(a.readerId)! }, ip: request.ip })),
          );
        }
        return {
          body: {
            assigned: plan.assigned.map((a) => ({ application_id: a.applicationId, staff_id: a.readerId, staff_email: emailOf.get(a.readerId)! })),
            skipped: [
              ...ids.filter((id) => holders.has(id)).map((id) => ({ application_id: id, reason: assignmentSkipped.held(holders.get(id)!) })),
              ...plan.skipped.map((id) => ({ application_id: id, reason: assignmentSkipped.conflicted })),
            ],
          },
        };
      });
      return reply.code(200).send(outcome.body);
    }),

    unassignApplication: staffCall<'unassignApplication'>('decider', async (request, reply, staff) => {
      const { id: userId, staff_id: memberId } = request.params;
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx.delete(assignments).where(and(eq(assignments.userId, userId), eq(assignments.staffId, memberId))).returning();
        if (!row) return false;
        const [member] = await tx.select({ email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, memberId));
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'unassign', applicationId: userId, detail: { member: member?.email ?? memberId }, ip: request.ip });
        return true;
      });
      if (!removed) throw new HttpError(404, reviewMessages.assignmentNotFound);
      return reply.code(204).send();
    }),
  } satisfies Handlers;
}
