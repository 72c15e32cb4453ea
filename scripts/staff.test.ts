import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../server/infra/db';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

/** An operator's command as typed (`npm run staff -- …`), on an embedded database. */
async function command(script: string, dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3000', DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const staff = (dataDir: string, ...args: string[]) => command('scripts/staff.ts', dataDir, ...args);

describe('npm run staff', () => {
  it('creates the first admin and prints a one-time set-up link; again, a new link; bad use says how', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-staff-cli-'));
    const first = await staff(dataDir, 'add', 'Registrar@Example.edu', '--role', 'admin');
    expect(first.code, first.stderr).toBe(0);
    const [link, explanation] = first.stdout.trim().split('\n');
    expect(link).toMatch(/^http:\/\/localhost:3000\/staff\/setup\?token=[\w-]{43}$/);
    expect(explanation).toBe('One-time set-up link for registrar@example.edu (admin), valid 72 hours: open it to choose a password and add the authenticator.');
    const second = await staff(dataDir, 'add', 'registrar@example.edu', '--role', 'admin');
    expect(second.stdout.split('\n')[0]).not.toBe(link);

    const usage = await staff(dataDir, 'add', 'someone@example.edu', '--role', 'owner');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run staff -- add <email> --role admin|decider|reader');
    const invalid = await staff(dataDir, 'add', 'not-an-address', '--role', 'reader');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('Enter a valid e-mail address.');
  }, 120_000);

  it('refuses in one line while a running process holds the embedded database, and runs once it is let go or has died', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-staff-held-'));
    // This test's process stands for the running server: it holds the database as the server does.
    const held = await openDatabase({ databaseUrl: null, dataDir });
    const refusal = `DATA_DIR ${dataDir} holds the embedded database of a running process (pid ${process.pid}, likely the server): stop it first, then run this again (PGlite is one process's), or use DATABASE_URL.\n`;
    const refused = await staff(dataDir, 'add', 'registrar@example.edu', '--role', 'admin');
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '', refusal]);
    const link = await command('scripts/service-link.ts', dataDir, 'applicant@example.com');
    expect([link.code, link.stdout, link.stderr]).toEqual([1, '', refusal]);
    await held.close();
    // A server killed with -9 leaves its file behind, naming a process that is gone: taken over.
    writeFileSync(path.join(dataDir, 'pglite.lock'), `${spawnSync('true').pid}\n`);
    const made = await staff(dataDir, 'add', 'registrar@example.edu', '--role', 'admin');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^http:\/\/localhost:3000\/staff\/setup\?token=/);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  }, 120_000);
});
