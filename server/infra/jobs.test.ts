import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresReason } from '../testing/db';
import { startJobs, type Jobs } from './jobs';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: jobs on PostgreSQL: ${pgReason}`);

describe.skipIf(pgReason !== null)('jobs on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const started: Jobs[] = [];
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await database.migrate();
  });
  afterAll(async () => {
    for (const jobs of started) await jobs.stop();
    await database?.dispose();
  });

  it('wakes a worker in another process at once when a job is sent, not at its next poll', async () => {
    // Two queue clients as two processes would hold them: the app (no workers) and a worker that
    // polls only once an hour, so only the notice can wake it in time.
    const app = await startJobs(database, () => {}, 3600);
    const worker = await startJobs(database, () => {}, 3600);
    started.push(app, worker);
    const received = new Promise<Record<string, string>>((resolve) => void worker.work('pdf-copy', async (data) => resolve(data)));
    // pg-boss fetches once as the worker starts: send after that fetch has come back empty.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await app.send('pdf-copy', { userId: 'woken' });
    await expect(Promise.race([received, new Promise((_, reject) => setTimeout(() => reject(new Error('not woken within 20 s')), 20_000))])).resolves.toEqual({ userId: 'woken' });
  });
});

describe('jobs at once (issue 33)', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let jobs: Jobs;
  beforeAll(async () => {
    database = await freshDatabase('pglite');
    await database.migrate();
    jobs = await startJobs(database, () => {});
  });
  afterAll(async () => {
    await jobs?.stop();
    await database?.dispose();
  });

  it('works on as many jobs of one queue at once as its concurrency says', async () => {
    // Each job holds until two are at work together: with one at a time it would never end.
    let atWork = 0;
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    const done: string[] = [];
    await jobs.work(
      'pdf-copy',
      async (data) => {
        if (++atWork === 2) release();
        await both;
        done.push(data.userId!);
      },
      { concurrency: 2 },
    );
    await jobs.send('pdf-copy', { userId: 'first' });
    await jobs.send('pdf-copy', { userId: 'second' });
    await expect.poll(() => done.sort(), { timeout: 30_000 }).toEqual(['first', 'second']);
  });

  it('takes the next job as soon as one ends, not at its next poll', async () => {
    // A worker that polls once an hour, started with three jobs queued and no notice to come: it
    // fetches once as it starts, and only asking again after each job gets the others done.
    const hourly = await startJobs(database, () => {}, 3600);
    try {
      for (const userId of ['one', 'two', 'three']) await hourly.send('convert-document', { documentId: userId });
      const done: string[] = [];
      await hourly.work('convert-document', async (data) => void done.push(data.documentId!));
      await expect.poll(() => done, { timeout: 30_000 }).toEqual(['one', 'two', 'three']);
    } finally {
      await hourly.stop();
    }
  });
});
