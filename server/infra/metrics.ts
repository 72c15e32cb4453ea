import Fastify from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from './db';
import { queues } from './jobs';

/**
 * What an operator watches (issue 33), as Prometheus metrics (prom-client): each call's duration by
 * operation, the job queues (waiting, at work, the oldest waiting), each job's duration and
 * failures, the database pool, the drawn pages served and refused, and (once served) Node's own
 * event-loop lag, memory and CPU. One registry per app: the tests build many apps in one process.
 * Served by `startMetricsServer` on a port of its own, never by the app's port (docs/deploy.md).
 */
export interface Metrics {
  registry: Registry;
  /** A call answered: its operation (the contract's operationId, or what the path served), method and status. */
  request(operation: string, method: string, status: number, seconds: number): void;
  /** A job's handler ended, having thrown or not. */
  job(queue: string, seconds: number, failed: boolean): void;
  /** A signed-in form page asked to be drawn: drawn (served) or sent as built (refused by the budget). */
  drawnPage(outcome: 'served' | 'refused'): void;
}

/** The SQL of the queue figures: pg-boss 10's job table, by queue; waiting counts jobs already due (a release's notices wait for their hour). */
const QUEUES_SQL = `select name,
  count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
  count(*) filter (where state = 'active')::int as active,
  coalesce(extract(epoch from now() - min(created_on) filter (where state in ('created', 'retry') and start_after <= now())), 0)::float8 as oldest
  from pgboss.job where state < 'completed' group by name`;

/** Seconds: a save takes milliseconds, a PDF copy seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export function createMetrics(database: Pick<Database, 'executeSql' | 'poolStats'>): Metrics {
  const registry = new Registry();
  const requests = new Histogram({ name: 'portal_http_request_duration_seconds', help: 'Time to answer a call, by operation.', labelNames: ['operation', 'method', 'status'], buckets: REQUEST_BUCKETS, registers: [registry] });
  const jobs = new Histogram({ name: 'portal_job_duration_seconds', help: "Time a job's handler took, by queue and outcome.", labelNames: ['queue', 'outcome'], buckets: JOB_BUCKETS, registers: [registry] });
  const failures = new Counter({ name: 'portal_job_failures_total', help: 'Jobs whose handler failed, by queue.', labelNames: ['queue'], registers: [registry] });
  const drawn = new Counter({ name: 'portal_drawn_pages_total', help: 'Signed-in form pages drawn with their answers (served) or sent as built (refused by the budget).', labelNames: ['outcome'], registers: [registry] });
  for (const queue of queues) failures.labels(queue).inc(0);
  for (const outcome of ['served', 'refused']) drawn.labels(outcome).inc(0);

  // Read when scraped: one query for every queue, shared by the three gauges of one scrape.
  let reading: Promise<{ name: string; waiting: number; active: number; oldest: number }[]> | null = null;
  const queueRows = () => {
    reading ??= database.executeSql(QUEUES_SQL).then(
      (result) => result.rows as { name: string; waiting: number; active: number; oldest: number }[],
      () => [],
    );
    const read = reading;
    setImmediate(() => reading === read && (reading = null));
    return read;
  };
  const queueGauge = (name: string, help: string, value: (row: { waiting: number; active: number; oldest: number }) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const rows = await queueRows();
        for (const queue of queues) {
          const row = rows.find((each) => each.name === queue);
          this.labels(queue).set(row ? value(row) : 0);
        }
      },
    });
  queueGauge('portal_jobs_waiting', 'Jobs due and not yet taken, by queue.', (row) => row.waiting);
  queueGauge('portal_jobs_active', 'Jobs at work, by queue.', (row) => row.active);
  queueGauge('portal_jobs_oldest_waiting_seconds', 'Age of the oldest job due and not yet taken, by queue.', (row) => row.oldest);
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'Database connections of this process: in use, idle, and calls waiting for one (the embedded database has one connection and reads as one in use).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = database.poolStats();
      this.labels('in_use').set(pool.total - pool.idle);
      this.labels('idle').set(pool.idle);
      this.labels('waiting').set(pool.waiting);
    },
  });

  return {
    registry,
    // Observed with its labels in one call: `labels(...).observe` checks and hashes them twice, on every request.
    request: (operation, method, status, seconds) => requests.observe({ operation, method, status: String(status) }, seconds),
    job: (queue, seconds, failed) => {
      jobs.labels(queue, failed ? 'failed' : 'done').observe(seconds);
      if (failed) failures.labels(queue).inc();
    },
    drawnPage: (outcome) => drawn.labels(outcome).inc(),
  };
}

/**
 * Serves `metrics` at `GET /metrics` on a port of its own (METRICS_PORT, on METRICS_HOST: the
 * loopback unless said), with Node's default metrics (event-loop lag among them) added. Nothing
 * else answers there; the app's own port has no /metrics.
 */
export async function startMetricsServer(metrics: Metrics, listen: { host: string; port: number }): Promise<{ url: string; close: () => Promise<void> }> {
  collectDefaultMetrics({ register: metrics.registry });
  const server = Fastify();
  server.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  const url = await server.listen(listen);
  return { url, close: () => server.close() };
}
