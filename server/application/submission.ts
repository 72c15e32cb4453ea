import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { eq } from 'drizzle-orm';
import { catalogue } from '../../src/catalogue';
import { validateApplication } from '../../src/form/validation';
import type { Db } from '../infra/db';
import { applications, webStatusEvents } from '../infra/schema';
import { answerMessages } from './answers';

export const submissionMessages = {
  submitted: 'Your application was successfully submitted.',
  alreadySubmitted: 'Your application has already been submitted.',
  missing: "We're missing some information. Please fix the highlighted fields and submit again.",
  recorded: 'Recorded.',
  unknownButton: 'There is no such add-another button.',
  tooMany: (max: number) => `You can add at most ${max} of these.`,
} as const;

/** Add-another buttons of the catalogue and their maximum (5 legacy, 5 siblings, 3 high schools). */
const buttonMax = new Map(catalogue.flatMap((group) => (group.repeat ? [[group.repeat.buttonId, group.repeat.max] as const] : [])));

/** The application row of a user, created when missing, locked for the transaction. */
async function lockedApplication(tx: Db, userId: string) {
  await tx.insert(applications).values({ userId }).onConflictDoNothing();
  const [row] = await tx.select().from(applications).where(eq(applications.userId, userId)).for('update');
  return row!;
}

/** `onSubmitted` runs once per application, after the submit is stored (it queues the PDF copy). */
export function submissionHandlers(db: Db, onSubmitted: (userId: string) => Promise<void> = async () => {}): Record<string, RouteHandlerMethod> {
  /** Runs `change` on the locked row unless the application is submitted (then 409). */
  async function whileOpen(
    request: FastifyRequest,
    reply: FastifyReply,
    change: (tx: Db, row: Awaited<ReturnType<typeof lockedApplication>>) => Promise<void>,
  ) {
    const frozen = await db.transaction(async (tx) => {
      const row = await lockedApplication(tx as unknown as Db, request.session!.userId);
      if (row.submittedAt) return true;
      await change(tx as unknown as Db, row);
      return false;
    });
    if (frozen) return reply.code(409).send({ message: answerMessages.frozen });
    return reply.send({ message: submissionMessages.recorded });
  }

  return {
    postValidations: async (request, reply) => {
      const errors = request.body as Record<string, string[]>;
      await db
        .insert(applications)
        .values({ userId: request.session!.userId, lastValidation: errors })
        .onConflictDoUpdate({ target: applications.userId, set: { lastValidation: errors } });
      return reply.send({ message: submissionMessages.recorded });
    },

    submitApplication: async (request, reply) => {
      const { userId } = request.session!;
      const outcome = await db.transaction(async (tx) => {
        const row = await lockedApplication(tx as unknown as Db, userId);
        if (row.submittedAt) return { status: 200, body: { message: submissionMessages.alreadySubmitted } };
        // The server never trusts the client: the stored answers are validated again here.
        const errors = validateApplication(row.answer);
        if (Object.keys(errors).length > 0) return { status: 400, body: { message: submissionMessages.missing, errors } };
        await tx.update(applications).set({ submittedAt: new Date(), lastValidation: {} }).where(eq(applications.userId, userId));
        // Three distinct statuses are what the profile reads as submitted.
        await tx
          .insert(webStatusEvents)
          .values(['started', 'validating', 'submitted'].map((webStatus) => ({ userId, webStatus })))
          .onConflictDoNothing();
        return { status: 200, body: { message: submissionMessages.submitted }, first: true };
      });
      if ('first' in outcome) await onSubmitted(userId);
      return reply.code(outcome.status).send(outcome.body);
    },

    getAddAnother: async (request, reply) => {
      const [row] = await db.select({ addAnother: applications.addAnother }).from(applications).where(eq(applications.userId, request.session!.userId));
      return reply.send(row?.addAnother ?? {});
    },

    putAddAnother: async (request, reply) => {
      const { button_id, num_components } = request.body as { button_id: string; num_components: number };
      const max = buttonMax.get(button_id);
      if (max === undefined) return reply.code(400).send({ message: submissionMessages.unknownButton, errors: { button_id: [submissionMessages.unknownButton] } });
      if (num_components > max) {
        return reply.code(400).send({ message: submissionMessages.tooMany(max), errors: { num_components: [submissionMessages.tooMany(max)] } });
      }
      return whileOpen(request, reply, async (tx, row) => {
        await tx.update(applications).set({ addAnother: { ...row.addAnother, [button_id]: num_components } }).where(eq(applications.userId, row.userId));
      });
    },

    getTabs: async (request, reply) => {
      const [row] = await db.select({ tabs: applications.tabs }).from(applications).where(eq(applications.userId, request.session!.userId));
      return reply.send(row?.tabs ?? {});
    },

    putTab: async (request, reply) => {
      const { tab_id, chosen_tab } = request.body as { tab_id: string; chosen_tab: string };
      return whileOpen(request, reply, async (tx, row) => {
        await tx.update(applications).set({ tabs: { ...row.tabs, [tab_id]: chosen_tab } }).where(eq(applications.userId, row.userId));
      });
    },
  };
}
