import PgBoss from 'pg-boss';
import type { Database } from './db';

type JobName = 'convert-document' | 'convert-material' | 'checklist-refresh' | 'pdf-copy' | 'decision-notices' | 'decision-letter' | 'export-run' | 'scores-recompute';
type JobHandler = (data: Record<string, string>) => Promise<void>;

/** The job queue: pg-boss tables in the application's own database (PGlite or PostgreSQL). */
export interface Jobs {
  /** Queues a job; `delaySeconds` holds it that long (a scheduled release's notices). */
  send(name: JobName, data: Record<string, string>, options?: { delaySeconds?: number }): Promise<void>;
  /** Starts working on `name` in this process, on `concurrency` jobs at once (one unless said). */
  work(name: JobName, handler: JobHandler, options?: { concurrency?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** Where a job's duration and outcome go: server/infra/metrics.ts's Metrics is one (named here, not imported: the metrics read this file's queue list). */
export interface JobMeter {
  job(queue: string, seconds: number, failed: boolean): void;
}

/** Every queue of the app (the metrics read each, so an empty one reads 0). */
export const queues: readonly JobName[] = ['convert-document', 'convert-material', 'checklist-refresh', 'pdf-copy', 'decision-notices', 'decision-letter', 'export-run', 'scores-recompute'];
const JOB_SENT_CHANNEL = 'job_sent';

/** A job whose row has not moved for this long was lost (its process died): pg-boss expires one at 5 minutes. */
export const STUCK_AFTER_MS = 10 * 60_000;

export async function startJobs(
  database: Database,
  log: (message: string, error?: unknown) => void,
  /** How often an idle worker asks for jobs when no notice wakes it (tests lengthen it). */
  pollingIntervalSeconds = 1,
  /** Where each job's duration and failure is counted (server/infra/metrics.ts). */
  metrics?: JobMeter,
): Promise<Jobs> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) as Promise<{ rows: never[] }> },
    schema: 'pgboss',
    // No cron schedules here; maintenance (expiry, archive) still runs.
    schedule: false,
  });
  boss.on('error', (error) => log('job queue error', error));
  await boss.start();
  for (const name of queues) await boss.createQueue(name);
  const workers = new Map<JobName, string[]>();
  const wake = (name: string) => {
    for (const id of workers.get(name as JobName) ?? []) boss.notifyWorker(id);
  };
  // On PostgreSQL a job sent by any process wakes this one's workers at once (a NOTIFY), instead of
  // at their next poll; missed notices only fall back to the poll.
  const stopListening = database.kind === 'postgres' ? await database.listen(JOB_SENT_CHANNEL, wake, () => {}) : null;

  return {
    async send(name, data, options = {}) {
      // A conversion that outlives 5 minutes is stuck (a hung browser); pg-boss then expires it.
      await boss.send(name, data, { expireInSeconds: 300, retryLimit: 0, ...(options.delaySeconds ? { startAfter: Math.ceil(options.delaySeconds) } : {}) });
      // Wake the workers now rather than at their next poll: this process's directly, the others' by a notice.
      wake(name);
      if (database.kind === 'postgres') await database.executeSql('select pg_notify($1, $2)', [JOB_SENT_CHANNEL, name]);
    },
    async work(name, handler, { concurrency = 1 } = {}) {
      // pg-boss 10 works one batch at a time per worker: jobs at once are workers on one queue.
      const ids: string[] = [];
      for (let i = 0; i < concurrency; i++) {
        // Its id is known once `work` answers; the handler only needs it after a job.
        const worker: { id?: string } = {};
        worker.id = await boss.work<Record<string, string>>(name, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
          if (!job) return;
          const start = performance.now();
          let failed = true;
          try {
            await handler(job.data);
            failed = false;
          } finally {
            metrics?.job(name, (performance.now() - start) / 1000, failed);
            // pg-boss waits out the rest of the polling interval after a job unless its worker was
            // notified meanwhile: one that found a job asks again at once, so a queue drains at the
            // jobs' own pace, not one job a second per worker (issue 33: 30 copies took 30 s on one).
            if (worker.id !== undefined) boss.notifyWorker(worker.id);
          }
        });
        ids.push(worker.id);
      }
      workers.set(name, ids);
    },
    async stop() {
      await stopListening?.();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
