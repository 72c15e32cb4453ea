import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

/** `npm run staff -- …` as an operator types it, on a fresh embedded database. */
async function staff(dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/staff.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3000', DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

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
});
