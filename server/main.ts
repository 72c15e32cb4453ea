import { pruneAccountsData } from './accounts/handlers';
import { pruneAnonymousAnswers } from './application/anonymous';
import { buildApp } from './app';
import { pruneRateLimits } from './infra/rateLimit';
import { loadConfigOrExit } from './infra/config';
import { describeStartupError } from './infra/startupError';
import { smtpFinding, startupFindings } from './infra/startupChecks';
import { openDatabase } from './infra/db';
import { surviveOutages } from './infra/outages';
import { createMetrics, startMetricsServer } from './infra/metrics';
import { readyToPrint } from './infra/browser';
import { seedLookups } from './lookup/store';
import { pruneServiceTokens } from './service/tokens';

async function main() {
  // A moment without the database does not end the app (issue 49, item 9); a bug still does.
  surviveOutages((message, error) => console.error(message, error));
  const database = await openDatabase({ databaseUrl: config.databaseUrl, migrationUrl: config.databaseMigrationUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  await database.migrate();
  // The shipped school, college and ZIP lists, on the first start only (a few seconds).
  await seedLookups(database.db, (line) => console.log(line));
  const metrics = createMetrics(database);
  const app = await buildApp({ config, database, logger: config.nodeEnv !== 'test', metrics });
  // Prometheus reads this process on a port of its own (docs/deploy.md), never through the app's.
  const metricsServer = config.metrics ? await startMetricsServer(metrics, config.metrics) : null;
  // Expired codes, reset links, saved visitor answers, print tokens and old rate-limit windows are removed hourly.
  const prune = () =>
    Promise.all([pruneAccountsData(database.db), pruneRateLimits(database.db), pruneAnonymousAnswers(database.db), pruneServiceTokens(database.db)]).catch((error) => app.log.error(error, 'prune failed'));
  const pruneTimer = setInterval(() => void prune(), 3_600_000);
  pruneTimer.unref();
  const shutdown = async () => {
    clearInterval(pruneTimer);
    await metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  // This process prints: its browser is ready before any call is taken (browser.ts). Without it
  // the first print launches one, as before.
  if (config.inProcessWorker) await readyToPrint(config.chromiumPath).catch((error: unknown) => app.log.error(error, 'the browser could not be readied'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Admissions portal on ${config.publicUrl} (database: ${database.kind})${metricsServer ? `; metrics on ${metricsServer.url}/metrics` : ''}`);
}

const config = loadConfigOrExit();
// A configuration that loads but would fail quietly: said at once, refused when nothing would work.
const findings = startupFindings(config);
for (const finding of findings) console.error(finding.line);
if (findings.some((finding) => finding.level === 'refuse')) process.exit(1);
void smtpFinding(config).then((finding) => finding && console.error(finding.line));
try {
  await main();
} catch (error) {
  // The failures an operator meets at start-up get one line; anything else its full trace.
  const line = describeStartupError(error, config);
  if (!line) throw error;
  console.error(line);
  process.exit(1);
}
