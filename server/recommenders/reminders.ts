import { eq, sql } from 'drizzle-orm';
import { BUILT_IN_CHECKLIST, REMINDER_INTERVAL_DAYS, reminderMail } from '../../domain/checklist';
import { currentChecklistRules } from '../office/checklist';
import { mail } from '../office/mail';
import { signedIn, type Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { rowsOf, type Db } from '../infra/db';
import { refusedForGood, type Mailer } from '../infra/mail';
import { applications, materialReminders, users } from '../infra/schema';

export interface ReminderDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: (error: unknown, message: string) => void;
}


/**
 * A claim not confirmed sent after this long was a process that died or a mail server that was
 * out (a mail takes seconds at most): the reminder is due again at the next sweep.
 */
export const REMINDER_LEASE_MS = 2 * 60_000;

/** One week's reminder's own Message-ID (from the reminder before it): the same each time it is sent, so a duplicate is recognisable. */
const reminderMessageId = (userId: string, previous: Date | null, publicUrl: string) => `<material-reminder.${userId}.${previous?.getTime() ?? 0}@${new URL(publicUrl).hostname}>`;

/**
 * Claims up to `batch` applicants due a reminder (something awaited, submitted a week ago or more,
 * not reminded in the last week, not switched off, not claimed by a sweep within its lease) and
 * mails each what is awaited. At least once (issue 49, item 5): the claim is one committed
 * statement, so an applicant is claimed by one sweep however many processes sweep at once; a
 * reminder counts as sent once the mail server took it; one claimed and not confirmed (the process
 * died, the server was out) is due again after REMINDER_LEASE_MS, with the same Message-ID. A mail
 * the server refused for good (5xx) is counted as sent: tried again next week.
 */
export async function sendMaterialReminders(deps: ReminderDeps, batch = 200, now = clock.now()): Promise<number> {
  const cutoff = new Date(now.getTime() - REMINDER_INTERVAL_DAYS * 86_400_000);
  const leaseOver = new Date(now.getTime() - REMINDER_LEASE_MS);
  // The names of the rules in force, then of the built-in ones (an item kept from before a change).
  const labelOf = new Map([...BUILT_IN_CHECKLIST, ...(await currentChecklistRules(deps.db)).rules].map((rule) => [rule.key, rule.label]));
  const claimed = rowsOf<{ user_id: string; last_sent_at: string | Date | null }>(
    await deps.db.execute(sql`
      insert into ${materialReminders} (user_id, claimed_at)
      select a.user_id, ${now} from ${applications} a
      left join ${materialReminders} r on r.user_id = a.user_id
      where a.checklist_missing <> '{}'::text[] and a.submitted_at <= ${cutoff}
        and (r.user_id is null or (not r.off and (r.last_sent_at is null or r.last_sent_at <= ${cutoff}) and (r.claimed_at is null or r.claimed_at <= ${leaseOver})))
      limit ${batch}
      on conflict (user_id) do update set claimed_at = excluded.claimed_at
        where not ${materialReminders.off} and (${materialReminders.lastSentAt} is null or ${materialReminders.lastSentAt} <= ${cutoff})
          and (${materialReminders.claimedAt} is null or ${materialReminders.claimedAt} <= ${leaseOver})
      returning user_id, last_sent_at`),
  );
  let sent = 0;
  for (const { user_id: userId, last_sent_at: previous } of claimed) {
    const [row] = await deps.db
      .select({ username: users.username, answer: applications.answer, missing: applications.checklistMissing })
      .from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .where(eq(applications.userId, userId));
    if (row?.missing?.length) {
      const name = typeof row.answer.first_name === 'string' && row.answer.first_name.trim() ? row.answer.first_name.trim() : 'applicant';
      const words = reminderMail({ name, missing: row.missing.map((key) => labelOf.get(key) ?? key), link: `${deps.publicUrl}/completion` });
      try {
        await deps.mailer.send({ ...mail(row.username, words.subject, words.paragraphs), messageId: reminderMessageId(userId, previous === null ? null : new Date(previous), deps.publicUrl) });
        sent++;
      } catch (error) {
        if (!refusedForGood(error)) {
          deps.log(error, `reminder to ${row.username} not sent now; it is sent again after its lease`);
          continue;
        }
        deps.log(error, `reminder to ${row.username} refused by the mail server; tried again next week`);
      }
      await deps.db.update(materialReminders).set({ lastSentAt: now, claimedAt: null }).where(eq(materialReminders.userId, userId));
    } else {
      // Everything arrived between the claim and now: nothing to remind of, the claim let go.
      await deps.db.update(materialReminders).set({ claimedAt: null }).where(eq(materialReminders.userId, userId));
    }
  }
  return sent;
}

/** Sweeps for reminders now and every hour in whichever process runs the workers; returns the function that stops it. */
export function remindNowAndThen(deps: ReminderDeps): () => void {
  const sweep = () => void sendMaterialReminders(deps).catch((error: unknown) => deps.log(error, 'reminder sweep failed'));
  sweep();
  const timer = setInterval(sweep, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether the applicant gets the weekly reminder (on unless switched off). */
export async function remindersOn(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ off: materialReminders.off }).from(materialReminders).where(eq(materialReminders.userId, userId));
  return !row?.off;
}

export function reminderHandlers(db: Db) {
  return {
    setMyReminders: signedIn<'setMyReminders'>(async (request, reply, { userId }) => {
      const off = !request.body.enabled;
      await db.insert(materialReminders).values({ userId, off }).onConflictDoUpdate({ target: materialReminders.userId, set: { off } });
      return reply.code(200).send({ enabled: !off });
    }),
  } satisfies Handlers;
}
