import { existsSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from './config';

export interface StartupFinding {
  /** `refuse`: the server would serve nothing useful; `warn`: it runs, and something named fails. */
  level: 'refuse' | 'warn';
  line: string;
}

const SMTP_PROBE_MS = 5_000;

/** Where a mail server is, without its password. */
function smtpAt(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587')}`;
}

/** Null when the mail server answers, else what went wrong. */
async function smtpProblem(smtpUrl: string): Promise<string | null> {
  const url = new URL(smtpUrl);
  for (const name of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) url.searchParams.set(name, String(SMTP_PROBE_MS));
  const transport = nodemailer.createTransport(url.toString());
  try {
    await transport.verify();
    return null;
  } catch (error) {
    // nodemailer's own codes (ESOCKET) say less than the socket's message (connect ECONNREFUSED …).
    return error instanceof Error ? error.message.slice(0, 200) : String(error);
  } finally {
    transport.close();
  }
}

/**
 * What an operator must hear at start-up about a configuration that loads but would fail quietly
 * (issue 29, item 10): no built client, no browser. Two file checks: nothing that waits.
 */
export function startupFindings(config: Pick<Config, 'clientDir' | 'chromiumPath' | 'nodeEnv'> & Partial<Pick<Config, 'databaseUrl' | 'databaseMigrationUrl'>>, exists: (file: string) => boolean = existsSync): StartupFinding[] {
  const findings: StartupFinding[] = [];
  if (!exists(path.join(config.clientDir, 'index.html'))) {
    const line = `CLIENT_DIR ${config.clientDir} holds no built client (index.html): run \`npm run build\`, or set CLIENT_DIR to where it was built.`;
    findings.push(config.nodeEnv === 'production' ? { level: 'refuse', line: `Start-up error: ${line}` } : { level: 'warn', line: `Warning: ${line} The calls answer; the pages do not.` });
  }
  if (!exists(config.chromiumPath)) {
    findings.push({ level: 'warn', line: `Warning: CHROMIUM_PATH ${config.chromiumPath} is not there: DOCX conversions and PDF copies fail until a browser is (apt-get install chromium, or set CHROMIUM_PATH); /healthz says degraded.` });
  }
  if (config.nodeEnv === 'production' && config.databaseUrl && !config.databaseMigrationUrl) {
    findings.push({ level: 'warn', line: "Warning: DATABASE_MIGRATION_URL is not set: DATABASE_URL's role owns the tables, so it could switch the audit log's triggers off and rewrite it (docs/deploy.md, \"Two database roles\")." });
  }
  return findings;
}

/**
 * In production, a mail server that does not answer: told once it is known, while the server
 * starts (the probe takes up to 5 s and holds nothing up).
 */
export async function smtpFinding(config: Pick<Config, 'smtpUrl' | 'nodeEnv'>, probe: (smtpUrl: string) => Promise<string | null> = smtpProblem): Promise<StartupFinding | null> {
  if (config.nodeEnv !== 'production' || !config.smtpUrl) return null;
  const problem = await probe(config.smtpUrl);
  return problem ? { level: 'warn', line: `Warning: SMTP_URL ${smtpAt(config.smtpUrl)} does not answer (${problem}): confirmation codes and reset links are not sent until it does.` } : null;
}
