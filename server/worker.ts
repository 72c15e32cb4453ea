import os from 'node:os';
import { createStorage } from './infra/storage';
import { loadConfigOrExit } from './infra/config';
import { openDatabase } from './infra/db';
import { surviveOutages } from './infra/outages';
import { createMetrics, startMetricsServer } from './infra/metrics';
import { startJobs } from './infra/jobs';
import { closeBrowsers, readyToPrint } from './infra/browser';
import { createMailer } from './infra/mail';
import { startWorkers } from './app';

/**
 * The worker's CPU priority (nice): below the web processes' 0, so on a machine they share an
 * export run or a print yields the CPU to the applicants' calls (issue 49, item 15); its Chromium
 * inherits it. Where the worker has a machine of its own, nothing waits on it.
 */
const WORKER_NICE = 10;

/**
 * `npm run worker`: conversion, PDF-copy and decision-notice jobs in a process of their own, next to web processes
 * started with IN_PROCESS_WORKER=false. Needs DATABASE_URL (the embedded database has one process).
 */
async function main() {
  const config = loadConfigOrExit();
  os.setPriority(Math.max(os.getPriority(), WORKER_NICE));
  if (!config.databaseUrl) {
    console.error('DATABASE_URL: a separate worker needs PostgreSQL; the embedded database runs its worker in the web process.');
    process.exit(1);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, migrationUrl: config.databaseMigrationUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  await database.migrate();
  const log = { error: (detail: unknown, message?: string) => console.error(message ?? 'worker error', detail) };
  // A moment without the database does not end the worker (issue 49, item 9); a bug still does.
  surviveOutages((message, error) => log.error(error, message));
  const metrics = createMetrics(database);
  const jobs = await startJobs(database, (message, error) => log.error(error, message), undefined, metrics);
  // The worker's own jobs' durations and failures; the queues read the same from any process.
  const metricsServer = config.metrics ? await startMetricsServer(metrics, config.metrics) : null;
  const jobDeps = { db: database.db, storage: createStorage(config), jobs, chromiumPath: config.chromiumPath, log };
  // Ready before the first job, not in the middle of it (browser.ts); without it the first print launches one.
  await readyToPrint(config.chromiumPath).catch((error: unknown) => log.error(error, 'the browser could not be readied'));
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db, log: (line) => console.log(line) });
  const workers = await startWorkers({ ...jobDeps, mailer, publicUrl: config.publicUrl, onlyProcess: false });
  console.log(`Worker running (database: ${database.kind})${metricsServer ? `, metrics on ${metricsServer.url}/metrics` : ''}; stop with Ctrl+C.`);
  const shutdown = async () => {
    workers.stopNotices();
    workers.stopTimers();
    await metricsServer?.close();
    await jobs.stop();
    await closeBrowsers();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

await main();
