import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { CORRECTION_REASON_MAX, withdrawalMessages } from '../../domain/corrections';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';

type Withdrawal = components['schemas']['Withdrawal'];

/** An application's withdrawal as the console shows it, or null while it stands. */
export const withdrawalOf = (row: { withdrawnAt: Date | null; withdrawnReason: string | null; withdrawnBy: string | null; submittedAt: Date | null }): Withdrawal | null =>
  row.withdrawnAt ? { kind: row.submittedAt ? 'withdrawn' : 'cancelled', at: row.withdrawnAt.toISOString(), reason: row.withdrawnReason ?? '', by: row.withdrawnBy ?? '' } : null;

export function withdrawalHandlers(db: Db) {
  return {
    withdrawApplication: staffCall<'withdrawApplication'>('decider', async (request, reply, staff) => {
      const userId = request.params.id;
      const reason = request.body.reason.trim();
      if (!reason || reason.length > CORRECTION_REASON_MAX) throw new HttpError(400, withdrawalMessages.reasonRequired, { errors: { reason: [withdrawalMessages.reasonRequired] } });
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.select({ withdrawnAt: applications.withdrawnAt }).from(applications).where(eq(applications.userId, userId)).for('update');
        if (!row) return null;
        if (row.withdrawnAt) return 'already' as const;
        const [updated] = await tx
          .update(applications)
          .set({ withdrawnAt: clock.now(), withdrawnReason: reason, withdrawnBy: staff.email })
          .where(and(eq(applications.userId, userId), isNull(applications.withdrawnAt)))
          .returning({ withdrawnAt: applications.withdrawnAt, withdrawnReason: applications.withdrawnReason, withdrawnBy: applications.withdrawnBy, submittedAt: applications.submittedAt });
        const withdrawal = withdrawalOf(updated!)!;
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'application_withdraw', applicationId: userId, detail: { reason, kind: withdrawal.kind }, ip: request.ip });
        return withdrawal;
      });
      if (outcome === null) throw new HttpError(404, staffMessages.applicationNotFound);
      if (outcome === 'already') throw new HttpError(409, withdrawalMessages.already);
      return reply.code(200).send(outcome);
    }),

    reinstateApplication: staffCall<'reinstateApplication'>('decider', async (request, reply, staff) => {
      const userId = request.params.id;
      const reinstated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(applications)
          .set({ withdrawnAt: null, withdrawnReason: null, withdrawnBy: null })
          .where(and(eq(applications.userId, userId), isNotNull(applications.withdrawnAt)))
          .returning({ userId: applications.userId });
        if (row) await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'application_reinstate', applicationId: userId, ip: request.ip });
        return Boolean(row);
      });
      if (!reinstated) throw new HttpError(404, staffMessages.applicationNotFound);
      return reply.code(204).send();
    }),
  } satisfies Handlers;
}
