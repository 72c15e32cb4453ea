import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { smtpFinding, startupFindings } from './startupChecks';

const built = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
  return dir;
};
const missing = path.join(os.tmpdir(), 'portal-nothing-here');
/** A port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('start-up findings (issue 29, item 10)', () => {
  it('says nothing when the client is built and the browser is there', async () => {
    expect(startupFindings({ clientDir: built(), chromiumPath: process.execPath, nodeEnv: 'development' })).toEqual([]);
    expect(await smtpFinding({ smtpUrl: null, nodeEnv: 'production' })).toBeNull();
  });

  it('refuses to serve production without a built client; elsewhere warns', async () => {
    expect(startupFindings({ clientDir: missing, chromiumPath: process.execPath, nodeEnv: 'production' })).toEqual([
      { level: 'refuse', line: `Start-up error: CLIENT_DIR ${missing} holds no built client (index.html): run \`npm run build\`, or set CLIENT_DIR to where it was built.` },
    ]);
    expect(startupFindings({ clientDir: missing, chromiumPath: process.execPath, nodeEnv: 'development' })).toEqual([
      { level: 'warn', line: `Warning: CLIENT_DIR ${missing} holds no built client (index.html): run \`npm run build\`, or set CLIENT_DIR to where it was built. The calls answer; the pages do not.` },
    ]);
  });

  it('warns of a production PostgreSQL with one role for the app and its tables (issue 29, item 7)', () => {
    const production = { clientDir: built(), chromiumPath: process.execPath, nodeEnv: 'production' as const, databaseUrl: 'postgres://db/portal' };
    expect(startupFindings({ ...production, databaseMigrationUrl: null })).toEqual([
      { level: 'warn', line: 'Warning: DATABASE_MIGRATION_URL is not set: DATABASE_URL\'s role owns the tables, so it could switch the audit log\'s triggers off and rewrite it (docs/deploy.md, "Two database roles").' },
    ]);
    expect(startupFindings({ ...production, databaseMigrationUrl: 'postgres://owner@db/portal' })).toEqual([]);
    expect(startupFindings({ ...production, databaseUrl: null, databaseMigrationUrl: null })).toEqual([]);
  });

  it('warns of a missing browser', async () => {
    expect(startupFindings({ clientDir: built(), chromiumPath: '/nonexistent/chromium', nodeEnv: 'test' })).toEqual([
      { level: 'warn', line: 'Warning: CHROMIUM_PATH /nonexistent/chromium is not there: DOCX conversions and PDF copies fail until a browser is (apt-get install chromium, or set CHROMIUM_PATH); /healthz says degraded.' },
    ]);
  });

  it('warns in production of a mail server that does not answer, without its password', async () => {
    const port = await closedPort();
    const smtpUrl = `smtp://user:secret@127.0.0.1:${port}`;
    const finding = await smtpFinding({ smtpUrl, nodeEnv: 'production' });
    expect(finding).toEqual({ level: 'warn', line: `Warning: SMTP_URL 127.0.0.1:${port} does not answer (connect ECONNREFUSED 127.0.0.1:${port}): confirmation codes and reset links are not sent until it does.` });
    expect(finding!.line).not.toContain('secret');
    // Outside production nothing is probed: the dev outbox or a test sink takes the mail.
    expect(await smtpFinding({ smtpUrl, nodeEnv: 'development' })).toBeNull();
  });
});
