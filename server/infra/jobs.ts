import PgBoss from 'pg-boss';
import type { Database } from './db';

type JobName = 'convert-document' | 'pdf-copy';
type JobHandler = (data: Record<string, string>) => Promise<void>;

/** The job queue: pg-boss tables in the application's own database (PGlite or PostgreSQL). */
export interface Jobs {
  send(name: JobName, data: Record<string, string>): Promise<void>;
  /** Starts working on `name` in this process. */
  work(name: JobName, handler: JobHandler): Promise<void>;
  stop(): Promise<void>;
}

const queues: JobName[] = ['convert-document', 'pdf-copy'];

/** A job whose row has not moved for this long was lost (its process died): pg-boss expires one at 5 minutes. */
export const STUCK_AFTER_MS = 10 * 60_000;

export async function startJobs(database: Database, log: (message: string, error?: unknown) => void): Promise<Jobs> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) as Promise<{ rows: never[] }> },
    schema: 'pgboss',
    // No cron schedules here; maintenance (expiry, archive) still runs.
    schedule: false,
  });
  boss.on('error', (error) => log('job queue error', error));
  await boss.start();
  for (const name of queues) await boss.createQueue(name);
  const workers = new Map<JobName, string>();

  return {
    async send(name, data) {
      // A conversion that outlives 5 minutes is stuck (a hung browser); pg-boss then expires it.
      await boss.send(name, data, { expireInSeconds: 300, retryLimit: 0 });
      // Wake an in-process worker now rather than at its next poll.
      const id = workers.get(name);
      if (id) boss.notifyWorker(id);
    },
    async work(name, handler) {
      const id = await boss.work<Record<string, string>>(name, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
        if (job) await handler(job.data);
      });
      workers.set(name, id);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
