import { sql } from 'drizzle-orm';
import { decisionNotice } from '../../domain/decisions';
import { clock } from '../infra/clock';
import { rowsOf, type Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import type { Mailer } from '../infra/mail';
import { decisions, users } from '../infra/schema';

export interface NoticeDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: (error: unknown, message: string) => void;
}

/**
 * How many notices one statement claims. One: a process killed mid-run then loses at most the
 * single mail in flight (which the mail server may or may not have taken), never a claimed batch
 * not yet sent. A claim costs a millisecond; a mail more.
 */
const NOTICE_BATCH = 1;

/**
 * Claims the next due notices (NOTICE_BATCH) at `now`: their release time written to `notice_for`,
 * their addresses returned. The rows it looks for are those of the partial index
 * `decisions_notice_due` (schema.ts): it reads no notice already sent.
 */
export const noticeClaim = (now: Date) => sql`
  with due as (
    select user_id from ${decisions}
    where release_at <= ${now.toISOString()}::timestamptz and notice_for is distinct from release_at
    order by release_at limit ${NOTICE_BATCH}
    for update skip locked
  )
  update ${decisions} d set notice_for = d.release_at
  from due, ${users} u
  where d.user_id = due.user_id and u.id = d.user_id
  returning u.username`;

/**
 * E-mails every applicant whose decision has been released since their last notice: that there
 * is an update in the portal, never the decision. Each notice is claimed (its release time
 * written to `notice_for`) in a committed statement before its mail is sent, so a process killed
 * mid-run never sends one twice; a mail claimed and not sent is logged, not sent again (at most
 * once: a second "update" mail would read as a second decision). Returns how many were sent.
 */
export async function sendDueNotices(deps: NoticeDeps, now = clock.now(), stopping?: AbortSignal): Promise<number> {
  let sent = 0;
  for (;;) {
    // Shutting down: the rest wait for the next worker (nothing is claimed and left unsent).
    if (stopping?.aborted) return sent;
    const claimed = rowsOf<{ username: string }>(await deps.db.execute(noticeClaim(now)));
    for (const { username } of claimed) {
      try {
        await deps.mailer.send({ to: username, ...decisionNotice(`${deps.publicUrl}/login`) });
        sent++;
      } catch (error) {
        deps.log(error, `decision notice to an applicant not sent (claimed, so not sent again)`);
      }
    }
    if (claimed.length < NOTICE_BATCH) return sent;
  }
}

/**
 * The notices job, and a sweep each minute for releases whose job ran early or was lost. The stop
 * it returns ends the sweeps and a run under way after its current mail (10,000 notices outlast a
 * graceful stop's wait; the database must not close under them), before the jobs stop.
 */
export async function registerNoticeWorker(jobs: Jobs, deps: NoticeDeps): Promise<() => void> {
  const stopping = new AbortController();
  const sweep = () => void sendDueNotices(deps, clock.now(), stopping.signal).catch((error) => deps.log(error, 'decision notices failed'));
  await jobs.work('decision-notices', async () => {
    await sendDueNotices(deps, clock.now(), stopping.signal);
  });
  sweep();
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  return () => {
    stopping.abort();
    clearInterval(timer);
  };
}
