import { and, eq, sql } from 'drizzle-orm';
import { decisionNotice } from '../../domain/decisions';
import { clock } from '../infra/clock';
import { rowsOf, type Db } from '../infra/db';
import type { Jobs } from '../infra/jobs';
import { refusedForGood, type Mailer } from '../infra/mail';
import { decisions, users } from '../infra/schema';

export interface NoticeDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: (error: unknown, message: string) => void;
}

/**
 * How many notices one statement claims. One: a process killed mid-run leaves at most the single
 * mail in flight claimed and unconfirmed, sent again once its lease runs out. A claim costs a
 * millisecond; a mail more.
 */
const NOTICE_BATCH = 1;

/**
 * A claim not confirmed sent after this long was a process that died (a mail takes seconds at
 * most): the notice is due again. The sweep runs each minute, so it goes out within three.
 */
export const NOTICE_LEASE_MS = 2 * 60_000;

/**
 * Claims the next due notices (NOTICE_BATCH) at `now`: their release time written to `notice_for`
 * and the claim's time to `notice_claimed_at`; answers their addresses, ids and release times. Due:
 * released, its notice not confirmed sent, and not claimed, or claimed longer ago than the lease.
 * The rows it looks for are those of the partial index `decisions_notice_unsent` (schema.ts): it
 * reads no notice already sent.
 */
export const noticeClaim = (now: Date) => sql`
  with due as (
    select user_id from ${decisions}
    where release_at <= ${now.toISOString()}::timestamptz and notice_sent_for is distinct from release_at
      and (notice_for is distinct from release_at or notice_claimed_at < ${new Date(now.getTime() - NOTICE_LEASE_MS).toISOString()}::timestamptz)
    order by release_at limit ${NOTICE_BATCH}
    for update skip locked
  )
  update ${decisions} d set notice_for = d.release_at, notice_claimed_at = ${now.toISOString()}::timestamptz
  from due, ${users} u
  where d.user_id = due.user_id and u.id = d.user_id
  returning u.username, d.user_id, d.release_at`;

/** One notice's own Message-ID: the same each time that notice is sent, so a duplicate after a crash is recognisable as one. */
const noticeMessageId = (userId: string, releaseAt: Date, publicUrl: string) => `<decision-notice.${userId}.${releaseAt.getTime()}@${new URL(publicUrl).hostname}>`;

/**
 * E-mails every applicant whose decision has been released since their last notice: that there
 * is an update in the portal, never the decision. At least once (issue 49, item 5): each notice is
 * claimed in a committed statement, sent, then confirmed; one claimed and not confirmed (the
 * process died, or the mail server was out) is due again after its lease, with the same
 * Message-ID. A mail the server refused for good is confirmed, logged, and not sent again.
 * Returns how many were sent.
 */
export async function sendDueNotices(deps: NoticeDeps, now = clock.now(), stopping?: AbortSignal): Promise<number> {
  let sent = 0;
  for (;;) {
    // Shutting down: the rest wait for the next worker (nothing is claimed and left unsent).
    if (stopping?.aborted) return sent;
    const claimed = rowsOf<{ username: string; user_id: string; release_at: string | Date }>(await deps.db.execute(noticeClaim(now)));
    for (const notice of claimed) {
      const releaseAt = new Date(notice.release_at);
      try {
        await deps.mailer.send({ to: notice.username, ...decisionNotice(`${deps.publicUrl}/login`), messageId: noticeMessageId(notice.user_id, releaseAt, deps.publicUrl) });
        sent++;
      } catch (error) {
        if (!refusedForGood(error)) {
          deps.log(error, 'decision notice not sent now; it is sent again after its lease');
          continue;
        }
        deps.log(error, 'decision notice refused by the mail server; not sent again');
      }
      // Confirmed for the release it was claimed for (the database's time, to the microsecond): a release changed meanwhile is due anew.
      await deps.db
        .update(decisions)
        .set({ noticeSentFor: sql`${decisions.noticeFor}` })
        .where(and(eq(decisions.userId, notice.user_id), sql`${decisions.noticeFor} = ${decisions.releaseAt}`));
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
