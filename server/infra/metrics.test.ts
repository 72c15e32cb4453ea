import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { freshDatabase, postgresReason } from '../testing/db';
import { applicantWithAnswers, testApp, type TestApp } from '../testing/app';
import { until } from '../testing/serverProcess';
import { startJobs } from './jobs';
import { createMetrics, startMetricsServer, type Metrics } from './metrics';

/*
 * What an operator watches on deadline night (issue 33): the app's metrics scraped over HTTP, as
 * Prometheus does, after a save and a PDF copy. On PostgreSQL when it answers (its pool is the one
 * an operator sizes), else on the embedded database.
 */
const pgReason = await postgresReason();
if (pgReason) console.warn(`metrics: on the embedded database, not PostgreSQL: ${pgReason}`);

/** The value of the series `name{labels}` in a scrape, or undefined when it is not there. */
function valueOf(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of scrape.split('\n')) {
    const match = /^([a-z0-9_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => has[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('the metrics endpoint after a save and a PDF copy', () => {
  let t: TestApp;
  let metrics: Metrics;
  let server: Awaited<ReturnType<typeof startMetricsServer>>;
  let scrape: string;

  beforeAll(async () => {
    const database = await freshDatabase(pgReason ? 'pglite' : 'postgres');
    await database.migrate();
    metrics = createMetrics(database);
    t = await testApp({ database, metrics });
    const closeApp = t.close;
    t.close = async () => {
      await closeApp();
      await database.dispose();
    };
    server = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 });
    const { cookie } = await applicantWithAnswers(t, 'metrics@example.com', completeApplication, false);
    expect((await t.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } })).statusCode).toBe(200);
    await until('the PDF copy', async () => ((await t.app.inject({ method: 'GET', url: '/api/pdf', headers: { cookie } })).json().status === 'COMPLETED' ? true : undefined), 60);
    // The copy is stored before pg-boss marks its job completed: the scrape waits for that mark, or
    // it catches the job still active (it did, once in a full run).
    await until('the copy\'s job to be marked completed', async () => {
      const { rows } = await database.executeSql("select count(*)::int as open from pgboss.job where name = 'pdf-copy' and state < 'completed'");
      return (rows[0] as { open: number }).open === 0 ? true : undefined;
    }, 60);
    scrape = await (await fetch(`${server.url}/metrics`)).text();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it("times each call by the contract's operation", () => {
    expect(valueOf(scrape, 'portal_http_request_duration_seconds_count', { operation: 'putAnswer', method: 'PUT', status: '200' })).toBe(1);
    expect(valueOf(scrape, 'portal_http_request_duration_seconds_bucket', { operation: 'putAnswer', le: '+Inf' })).toBe(1);
    expect(valueOf(scrape, 'portal_http_request_duration_seconds_count', { operation: 'submitApplication', status: '200' })).toBe(1);
  });

  it("times the PDF copy's job, counts no failure, and shows its queue empty", () => {
    expect(valueOf(scrape, 'portal_job_duration_seconds_count', { queue: 'pdf-copy', outcome: 'done' })).toBe(1);
    expect(valueOf(scrape, 'portal_job_failures_total', { queue: 'pdf-copy' })).toBe(0);
    expect(valueOf(scrape, 'portal_jobs_waiting', { queue: 'pdf-copy' })).toBe(0);
    expect(valueOf(scrape, 'portal_jobs_active', { queue: 'pdf-copy' })).toBe(0);
    expect(valueOf(scrape, 'portal_jobs_oldest_waiting_seconds', { queue: 'pdf-copy' })).toBe(0);
  });

  it('shows the database pool, the drawn pages and the event loop', () => {
    for (const state of ['in_use', 'idle', 'waiting']) expect(valueOf(scrape, 'portal_db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
    // No client build in this test: nothing drawn, nothing refused, both counted from zero.
    expect(valueOf(scrape, 'portal_drawn_pages_total', { outcome: 'served' })).toBe(0);
    expect(valueOf(scrape, 'portal_drawn_pages_total', { outcome: 'refused' })).toBe(0);
    // Each named series is there (the lag is measured between scrapes: the first may read 0).
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) expect(valueOf(scrape, name)).toBeGreaterThanOrEqual(0);
  });

  it("is not reachable by applicants: the app's port has no metrics, the metrics port nothing else", async () => {
    const { cookie } = await applicantWithAnswers(t, 'curious@example.com', {}, false);
    for (const url of ['/metrics', '/api/metrics', '/metrics?format=prometheus']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('portal_');
    }
    expect((await fetch(`${server.url}/api/profile`, { headers: { cookie } })).status).toBe(404);
  });
});

describe('the job queues in the metrics', () => {
  it('counts a job waiting with its age, and a job whose handler failed', async () => {
    const database = await freshDatabase('pglite');
    await database.migrate();
    const metrics = createMetrics(database);
    const jobs = await startJobs(database, () => {}, 1, metrics);
    try {
      // A queue nobody works in this process: the job waits.
      await jobs.send('export-run', { runId: 'waiting' });
      await jobs.work('convert-material', async () => {
        throw new Error('the handler failed');
      });
      await jobs.send('convert-material', { materialId: 'failing' });
      await expect.poll(async () => valueOf(await metrics.registry.metrics(), 'portal_job_failures_total', { queue: 'convert-material' }), { timeout: 30_000 }).toBe(1);
      const scrape = await metrics.registry.metrics();
      expect(valueOf(scrape, 'portal_job_duration_seconds_count', { queue: 'convert-material', outcome: 'failed' })).toBe(1);
      expect(valueOf(scrape, 'portal_jobs_waiting', { queue: 'export-run' })).toBe(1);
      expect(valueOf(scrape, 'portal_jobs_oldest_waiting_seconds', { queue: 'export-run' })).toBeGreaterThan(0);
    } finally {
      await jobs.stop();
      await database.dispose();
    }
  }, 60_000);
});
