import { eq, sql } from 'drizzle-orm';
import { repeatMaxByButton, tabsByGroup } from '../../domain/catalogue';
import { SUBMITTED_MESSAGE } from '../../domain/messages';
import { validateApplication } from '../../domain/rules/application';
import { signedIn, type Handlers } from '../http/handler';
import { runStatement, statement, type Db } from '../infra/db';
import { applications, webStatusEvents } from '../infra/schema';
import { answerMessages } from './answers';
import { HttpError } from '../http/errors';

export const submissionMessages = {
  submitted: SUBMITTED_MESSAGE,
  alreadySubmitted: 'Your application has already been submitted.',
  missing: "We're missing some information. Please fix the highlighted fields and submit again.",
  recorded: 'Recorded.',
  unknownButton: 'There is no such add-another button.',
  unknownTabGroup: 'There is no such group of tabs.',
  unknownTab: 'This group has no such tab.',
  tooMany: (max: number) => `You can add at most ${max} of these.`,
} as const;

/**
 * The application row's statements of the submit and of the other changes made while it is open,
 * built once (db.ts `statement`): drizzle built the insert of every default column and the select
 * of the whole row again on each call, 0.4 to 0.7 ms of the app's thread each on deadline night.
 */
const lockStatements = {
  create: statement('application_create', sql`insert into ${applications} (user_id) values (${sql.placeholder('userId')}) on conflict do nothing`),
  lock: statement(
    'application_lock',
    sql`select submitted_at, withdrawn_at, answer, add_another, tabs from ${applications} where user_id = ${sql.placeholder('userId')} for update`,
  ),
  submit: statement('application_submit', sql`update ${applications} set submitted_at = ${sql.placeholder('at')}, last_validation = '{}' where user_id = ${sql.placeholder('userId')}`),
  // Three distinct statuses are what the profile reads as submitted.
  submittedStatuses: statement(
    'application_submitted_statuses',
    sql`insert into ${webStatusEvents} (user_id, web_status) values (${sql.placeholder('userId')}, 'started'), (${sql.placeholder('userId')}, 'validating'), (${sql.placeholder('userId')}, 'submitted') on conflict do nothing`,
  ),
};

/** What a change made while the application is open reads of its row. */
interface LockedApplication {
  submittedAt: Date | null;
  /** Withdrawn, or (not submitted) cancelled by the office at the applicant's request (issue 51). */
  withdrawnAt: Date | null;
  answer: Record<string, string | number | boolean | null>;
  addAnother: Record<string, number>;
  tabs: Record<string, string>;
}

/** The application row of a user, created when missing, locked for the transaction. */
async function lockedApplication(tx: Db, userId: string): Promise<LockedApplication> {
  await runStatement(tx, lockStatements.create, { userId });
  type Row = { submitted_at: Date | null; withdrawn_at: Date | null; answer: LockedApplication['answer']; add_another: LockedApplication['addAnother']; tabs: LockedApplication['tabs'] };
  const [row] = await runStatement<Row>(tx, lockStatements.lock, { userId });
  return { submittedAt: row!.submitted_at, withdrawnAt: row!.withdrawn_at, answer: row!.answer, addAnother: row!.add_another, tabs: row!.tabs };
}

/** `onSubmitted` runs once per application, after the submit is stored (it queues the PDF copy). */
export function submissionHandlers(db: Db, onSubmitted: (userId: string) => Promise<void> = async () => {}) {
  /** Runs `change` on the locked row unless the application is submitted (409) or cancelled (409, saying so). */
  async function changeWhileOpen(userId: string, change: (tx: Db, row: LockedApplication) => Promise<void>): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await lockedApplication(tx, userId);
      if (row.submittedAt) throw new HttpError(409, answerMessages.frozen);
      if (row.withdrawnAt) throw new HttpError(409, answerMessages.cancelled);
      await change(tx, row);
    });
  }

  return {
    postValidations: signedIn<'postValidations'>(async (request, reply, { userId }) => {
      const errors = request.body;
      await db
        .insert(applications)
        .values({ userId, lastValidation: errors })
        .onConflictDoUpdate({ target: applications.userId, set: { lastValidation: errors } });
      return reply.code(200).send({ message: submissionMessages.recorded });
    }),

    submitApplication: signedIn<'submitApplication'>(async (_request, reply, { userId }) => {
      const outcome = await db.transaction(async (tx) => {
        const row = await lockedApplication(tx, userId);
        if (row.submittedAt) return { status: 200, body: { message: submissionMessages.alreadySubmitted } } as const;
        if (row.withdrawnAt) throw new HttpError(409, answerMessages.cancelled);
        // The server never trusts the client: the stored answers are validated again here.
        const errors = validateApplication(row.answer);
        if (Object.keys(errors).length > 0) throw new HttpError(400, submissionMessages.missing, { errors });
        await runStatement(tx, lockStatements.submit, { userId, at: new Date() });
        await runStatement(tx, lockStatements.submittedStatuses, { userId });
        return { status: 200, body: { message: submissionMessages.submitted }, first: true } as const;
      });
      if ('first' in outcome) await onSubmitted(userId);
      return reply.code(200).send(outcome.body);
    }),

    getAddAnother: signedIn<'getAddAnother'>(async (_request, reply, { userId }) => {
      const [row] = await db.select({ addAnother: applications.addAnother }).from(applications).where(eq(applications.userId, userId));
      return reply.code(200).send(row?.addAnother ?? {});
    }),

    putAddAnother: signedIn<'putAddAnother'>(async (request, reply, { userId }) => {
      const { button_id, num_components } = request.body;
      const max = repeatMaxByButton.get(button_id);
      if (max === undefined) throw new HttpError(400, submissionMessages.unknownButton, { errors: { button_id: [submissionMessages.unknownButton] } });
      if (num_components > max) {
        throw new HttpError(400, submissionMessages.tooMany(max), { errors: { num_components: [submissionMessages.tooMany(max)] } });
      }
      await changeWhileOpen(userId, async (tx, row) => {
        await tx.update(applications).set({ addAnother: { ...row.addAnother, [button_id]: num_components } }).where(eq(applications.userId, userId));
      });
      return reply.code(200).send({ message: submissionMessages.recorded });
    }),

    getTabs: signedIn<'getTabs'>(async (_request, reply, { userId }) => {
      const [row] = await db.select({ tabs: applications.tabs }).from(applications).where(eq(applications.userId, userId));
      return reply.code(200).send(row?.tabs ?? {});
    }),

    putTab: signedIn<'putTab'>(async (request, reply, { userId }) => {
      const { tab_id, chosen_tab } = request.body;
      // Only the form's tab groups and their tabs: the stored map stays as small as the form.
      const tabs = tabsByGroup.get(tab_id);
      if (!tabs) throw new HttpError(400, submissionMessages.unknownTabGroup, { errors: { tab_id: [submissionMessages.unknownTabGroup] } });
      if (!tabs.includes(chosen_tab)) throw new HttpError(400, submissionMessages.unknownTab, { errors: { chosen_tab: [submissionMessages.unknownTab] } });
      await changeWhileOpen(userId, async (tx, row) => {
        await tx.update(applications).set({ tabs: { ...row.tabs, [tab_id]: chosen_tab } }).where(eq(applications.userId, userId));
      });
      return reply.code(200).send({ message: submissionMessages.recorded });
    }),
  } satisfies Handlers;
}
