import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { decisionMessages, decisionState, type Decision, type DecisionState } from '../../domain/decisions';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { applications, decisions, users } from '../infra/schema';
import { recordAudit, recordAudits } from '../office/audit';
import { staffCall } from '../office/sessions';
import { conflictedAmong, notConflictedList } from '../office/conflicts';
import { Pacer } from '../infra/pace';
import { HttpError } from '../http/errors';

type StaffDecision = components['schemas']['StaffDecision'];
type DecisionRow = typeof decisions.$inferSelect;

/** A decision as the console shows it, its state read at `now`. */
function staffDecisionOf(row: DecisionRow, now: Date): StaffDecision {
  return {
    decision: row.decision,
    state: decisionState(row.releaseAt, now),
    decided_by: row.decidedByEmail,
    decided_at: row.decidedAt.toISOString(),
    release_at: row.releaseAt?.toISOString() ?? null,
    reason: row.reason,
    reply: row.reply,
    replied_at: row.repliedAt?.toISOString() ?? null,
    reply_recorded_by: row.replyRecordedBy,
    reply_reason: row.replyReason,
  };
}

/** The decision of one application, or null before one is recorded. */
async function decisionOf(db: Db, userId: string): Promise<DecisionRow | null> {
  return (await db.select().from(decisions).where(eq(decisions.userId, userId)))[0] ?? null;
}

/** An application's decision as staff read it, or null before one is made (the reader's view is given this by the root). */
export async function staffDecisionOfApplication(db: Db, userId: string): Promise<StaffDecision | null> {
  const row = await decisionOf(db, userId);
  return row ? staffDecisionOf(row, clock.now()) : null;
}

/** A release time a few minutes behind the server's clock (a slow form, a clock apart) means now. */
const RELEASE_SLACK_MS = 5 * 60_000;
const DECISION_PAGE_SIZE = 50;
/** Decisions released or called back per transaction. */
const RELEASE_CHUNK = 250;

/**
 * Runs `step` on the ids a chunk at a time, each chunk its own transaction (its rows and their
 * audit entries together): the audit log's chain lock is held by one chunk at a time, so every
 * other audited call (each read of an application or a list) waits for a chunk at most, never for
 * a whole release of 10,000 (measured in `npm run bench:staff`). A run cut off midway leaves the
 * rest as they were, to do again. Returns the sum of what the steps counted.
 */
async function inChunks(db: Db, ids: readonly string[], step: (tx: Db, chunk: string[]) => Promise<number>): Promise<number> {
  let done = 0;
  // At half the machine between chunks (pace.ts): the applicants saving meanwhile come first.
  const pacer = new Pacer();
  for (let at = 0; at < ids.length; at += RELEASE_CHUNK) {
    done += await db.transaction((tx) => step(tx, ids.slice(at, at + RELEASE_CHUNK)));
    await pacer.breathe();
  }
  return done;
}

/** The states' filters at `now`: released exactly when the release time has come. */
const stateFilter = (state: DecisionState, now: Date): SQL =>
  state === 'provisional' ? isNull(decisions.releaseAt) : state === 'scheduled' ? gt(decisions.releaseAt, now) : lte(decisions.releaseAt, now);

export function decisionHandlers(deps: { db: Db; jobs: Jobs }) {
  const { db, jobs } = deps;
  return {
    // A reply given another way, or corrected (issue 51 §2): only on a released admission, with a reason.
    recordReply: staffCall<'recordReply'>('decider', async (request, reply, staff) => {
      const userId = request.params.id;
      const reason = request.body.reason.trim();
      if (!reason) throw new HttpError(400, decisionMessages.replyReasonRequired, { errors: { reason: [decisionMessages.replyReasonRequired] } });
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(decisions).where(eq(decisions.userId, userId)).for('update');
        if (!row || row.decision !== 'admit' || decisionState(row.releaseAt, now) !== 'released') return null;
        const [changed] = await tx
          .update(decisions)
          .set({ reply: request.body.reply, repliedAt: request.body.reply ? now : null, replyRecordedBy: staff.email, replyReason: reason })
          .where(eq(decisions.userId, userId))
          .returning();
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'decision_reply_record', applicationId: userId, detail: { reply: request.body.reply, reason }, ip: request.ip });
        return changed!;
      });
      if (!outcome) throw new HttpError(409, decisionMessages.notAnOffer);
      return reply.code(200).send(staffDecisionOf(outcome, now));
    }),

    setDecision: staffCall<'setDecision'>('decider', async (request, reply, staff) => {
      const userId = request.params.id;
      const decision: Decision = request.body.decision;
      const reason = request.body.reason?.trim() || null;
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const [application] = await tx.select({ submittedAt: applications.submittedAt, withdrawnAt: applications.withdrawnAt }).from(applications).where(eq(applications.userId, userId)).for('update');
        if (!application) throw new HttpError(404, staffMessages.applicationNotFound);
        if (!application.submittedAt) throw new HttpError(409, decisionMessages.notSubmitted);
        // Withdrawn at the applicant's request: no decision until reinstated (issue 51).
        if (application.withdrawnAt) throw new HttpError(409, decisionMessages.withdrawn);
        const [current] = await tx.select().from(decisions).where(eq(decisions.userId, userId));
        const released = current ? decisionState(current.releaseAt, now) === 'released' : false;
        if (released && !reason) throw new HttpError(400, decisionMessages.reasonRequired, { errors: { reason: [decisionMessages.reasonRequired] } });
        const made = { decision, decidedBy: staff.staffId, decidedByEmail: staff.email, decidedAt: now };
        // A released decision changed is released again at once, its reply asked anew if the decision differs.
        const change = released ? { releaseAt: now, reason, ...(current!.decision !== decision ? { reply: null, repliedAt: null, replyRecordedBy: null, replyReason: null } : {}) } : {};
        const [row] = await tx
          .insert(decisions)
          .values({ userId, ...made, ...change })
          .onConflictDoUpdate({ target: decisions.userId, set: { ...made, ...change } })
          .returning();
        await recordAudit(tx, {
          staff: { id: staff.staffId, email: staff.email },
          action: released ? 'decision_change' : 'decision_set',
          applicationId: userId,
          detail: released ? { from: current!.decision, to: decision, reason } : { decision, from: current?.decision ?? null },
          ip: request.ip,
        });
        return { row: row!, released };
      });
      if (outcome.released) await jobs.send('decision-notices', {});
      return reply.code(200).send(staffDecisionOf(outcome.row, now));
    }),

    decideMany: staffCall<'decideMany'>('decider', async (request, reply, staff) => {
      const asked = [...new Set(request.body.application_ids)];
      // Never one the decider declared a conflict with: skipped and counted like the others.
      const conflicted = await conflictedAmong(db, staff.staffId, asked);
      const ids = asked.filter((id) => !conflicted.has(id));
      if (ids.length === 0) return reply.code(200).send({ decided: 0, skipped: asked.length });
      const decision: Decision = request.body.decision;
      const now = clock.now();
      const decided = await db.transaction(async (tx) => {
        // The submitted ones among them (not withdrawn), with their decisions, locked: a release or a change between the read and the write waits.
        const rows = await tx
          .select({ userId: applications.userId, current: decisions.decision, releaseAt: decisions.releaseAt })
          .from(applications)
          .leftJoin(decisions, eq(decisions.userId, applications.userId))
          .where(and(inArray(applications.userId, ids), isNotNull(applications.submittedAt), isNull(applications.withdrawnAt)))
          .for('update', { of: applications });
        const open = rows.filter((row) => decisionState(row.releaseAt, now) !== 'released');
        if (open.length === 0) return 0;
        const made = { decision, decidedBy: staff.staffId, decidedByEmail: staff.email, decidedAt: now };
        const written = new Set(
          (
            await tx
              .insert(decisions)
              .values(open.map((row) => ({ userId: row.userId, ...made })))
              // Never over one released meanwhile (a release does not wait for these locks): that change needs a reason.
              .onConflictDoUpdate({ target: decisions.userId, set: made, setWhere: or(isNull(decisions.releaseAt), gt(decisions.releaseAt, now)) })
              .returning({ userId: decisions.userId })
          ).map((row) => row.userId),
        );
        const changed = open.filter((row) => written.has(row.userId));
        await recordAudits(
          tx,
          changed.map((row) => ({ staff: { id: staff.staffId, email: staff.email }, action: 'decision_set', applicationId: row.userId, detail: { decision, from: row.current ?? null }, ip: request.ip })),
        );
        return changed.length;
      });
      return reply.code(200).send({ decided, skipped: asked.length - decided });
    }),

    listDecisions: staffCall<'listDecisions'>('decider', async (request, reply, staff) => {
      const { state, page = 1 } = request.query;
      const now = clock.now();
      const where = and(await notConflictedList(db, staff.staffId, sql`${decisions.userId}`), state ? stateFilter(state, now) : undefined);
      const [rows, [total]] = await Promise.all([
        db
          .select({
            decision: decisions,
            email: users.username,
            name: sql<string>`concat_ws(' ', nullif(${applications.answer}->>'first_name', ''), nullif(${applications.answer}->>'last_name', ''))`,
          })
          .from(decisions)
          .innerJoin(users, eq(users.id, decisions.userId))
          .innerJoin(applications, eq(applications.userId, decisions.userId))
          .where(where)
          .orderBy(desc(decisions.decidedAt), desc(decisions.userId))
          .limit(DECISION_PAGE_SIZE)
          .offset((page - 1) * DECISION_PAGE_SIZE),
        db.select({ n: count() }).from(decisions).where(where),
      ]);
      // A page shows names and decisions: one entry per page with the ids it showed, as the applications list.
      await recordAudit(db, {
        staff: { id: staff.staffId, email: staff.email },
        action: 'applications_list',
        detail: { list: 'decisions', state: state ?? null, page, ids: rows.map((row) => row.decision.userId) },
        ip: request.ip,
      });
      return reply.code(200).send({
        total: total?.n ?? 0,
        page,
        page_size: DECISION_PAGE_SIZE,
        items: rows.map((row) => ({ application_id: row.decision.userId, name: row.name || '(no name yet)', email: row.email, ...staffDecisionOf(row.decision, now) })),
      });
    }),

    releaseDecisions: staffCall<'releaseDecisions'>('decider', async (request, reply, staff) => {
      const now = clock.now();
      const asked = request.body.release_at ? new Date(request.body.release_at) : now;
      if (asked.getTime() < now.getTime() - RELEASE_SLACK_MS) {
        throw new HttpError(400, decisionMessages.releaseInPast, { errors: { release_at: [decisionMessages.releaseInPast] } });
      }
      const releaseAt = asked.getTime() < now.getTime() ? now : asked;
      const listed = [...new Set(request.body.application_ids)];
      const conflicted = await conflictedAmong(db, staff.staffId, listed);
      const ids = listed.filter((id) => !conflicted.has(id));
      if (ids.length === 0) throw new HttpError(409, decisionMessages.nothingToRelease);
      const released = await inChunks(db, ids, async (tx, chunk) => {
        // A decision made before its application was withdrawn stays unreleased (issue 51).
        const rows = await tx
          .update(decisions)
          .set({ releaseAt })
          .where(and(inArray(decisions.userId, chunk), isNull(decisions.releaseAt), sql`not exists (select 1 from ${applications} a where a.user_id = ${decisions.userId} and a.withdrawn_at is not null)`))
          .returning({ userId: decisions.userId });
        await recordAudits(
          tx,
          rows.map((row) => ({ staff: { id: staff.staffId, email: staff.email }, action: 'decision_release', applicationId: row.userId, detail: { release_at: releaseAt.toISOString() }, ip: request.ip })),
        );
        return rows.length;
      });
      if (released === 0) throw new HttpError(409, decisionMessages.nothingToRelease);
      // The notices go out when the release comes (and a sweep each minute catches a job run early).
      // A delay, not a time: the database's clock is not the server's (which tests move).
      await jobs.send('decision-notices', {}, { delaySeconds: (releaseAt.getTime() - now.getTime()) / 1000 });
      return reply.code(202).send({ scheduled: released, release_at: releaseAt.toISOString() });
    }),

    recallDecisions: staffCall<'recallDecisions'>('decider', async (request, reply, staff) => {
      const now = clock.now();
      const listed = [...new Set(request.body.application_ids)];
      const conflicted = await conflictedAmong(db, staff.staffId, listed);
      const ids = listed.filter((id) => !conflicted.has(id));
      const recalled = await inChunks(db, ids, async (tx, chunk) => {
        // Only releases still to come: one whose time has come was seen, and stays released.
        const rows = await tx
          .select({ userId: decisions.userId, releaseAt: decisions.releaseAt })
          .from(decisions)
          .where(and(inArray(decisions.userId, chunk), gt(decisions.releaseAt, now)))
          .for('update');
        if (rows.length === 0) return 0;
        await tx.update(decisions).set({ releaseAt: null }).where(inArray(decisions.userId, rows.map((row) => row.userId)));
        await recordAudits(
          tx,
          rows.map((row) => ({ staff: { id: staff.staffId, email: staff.email }, action: 'decision_recall', applicationId: row.userId, detail: { release_at: row.releaseAt!.toISOString() }, ip: request.ip })),
        );
        return rows.length;
      });
      if (recalled === 0) throw new HttpError(409, decisionMessages.nothingToRecall);
      return reply.code(200).send({ recalled });
    }),
  } satisfies Handlers;
}
