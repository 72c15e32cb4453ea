import { eq, sql } from 'drizzle-orm';
import { BUILT_IN_CHECKLIST, REMINDER_INTERVAL_DAYS, reminderMail } from '../../domain/checklist';
import { currentChecklistRules } from '../reader/checklist';
import { mail } from '../accounts/mails';
import { signedIn, type Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import { rowsOf, type Db } from '../infra/db';
import type { Mailer } from '../infra/mail';
import { applications, materialReminders, users } from '../infra/schema';

export interface ReminderDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: (error: unknown, message: string) => void;
}


/**
 * Claims up to `batch` applicants due a reminder (something awaited, submitted a week ago or more,
 * not reminded in the last week, not switched off) and mails each what is awaited. The claim is
 * one statement: an applicant is reminded once however many processes sweep at once. A mail that
 * fails is logged and not tried again before next week (a reminder, not a notice).
 */
export async function sendMaterialReminders(deps: ReminderDeps, batch = 200): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - REMINDER_INTERVAL_DAYS * 86_400_000);
  // The names of the rules in force, then of the built-in ones (an item kept from before a change).
  const labelOf = new Map([...BUILT_IN_CHECKLIST, ...(await currentChecklistRules(deps.db)).rules].map((rule) => [rule.key, rule.label]));
  const now = clock.now();
  const claimed = rowsOf<{ user_id: string }>(
    await deps.db.execute(sql`
      insert into ${materialReminders} (user_id, last_sent_at)
      select a.user_id, ${now} from ${applications} a
      left join ${materialReminders} r on r.user_id = a.user_id
      where a.checklist_missing <> '{}'::text[] and a.submitted_at <= ${cutoff}
        and (r.user_id is null or (not r.off and (r.last_sent_at is null or r.last_sent_at <= ${cutoff})))
      limit ${batch}
      on conflict (user_id) do update set last_sent_at = excluded.last_sent_at
        where not ${materialReminders.off} and (${materialReminders.lastSentAt} is null or ${materialReminders.lastSentAt} <= ${cutoff})
      returning user_id`),
  );
  for (const { user_id: userId } of claimed) {
    const [row] = await deps.db
      .select({ username: users.username, answer: applications.answer, missing: applications.checklistMissing })
      .from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .where(eq(applications.userId, userId));
    if (!row?.missing?.length) continue;
    const name = typeof row.answer.first_name === 'string' && row.answer.first_name.trim() ? row.answer.first_name.trim() : 'applicant';
    const words = reminderMail({ name, missing: row.missing.map((key) => labelOf.get(key) ?? key), link: `${deps.publicUrl}/completion` });
    await deps.mailer.send(mail(row.username, words.subject, words.paragraphs)).catch((error: unknown) => deps.log(error, `reminder to ${row.username} failed`));
  }
  return claimed.length;
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
