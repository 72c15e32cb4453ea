/**
 * The kill -9 proofs of the mail jobs (decision notices, materials reminders; issue 49, item 5):
 * a real worker process killed at one mail, and the check that between the mails sent before the
 * kill and after it, everyone due got theirs, at most the one in flight twice, with one Message-ID.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Mail } from '../infra/mail';

/** A mail as the killed worker wrote it: address and Message-ID. */
export type SentLine = [to: string, messageId: string];

/**
 * Runs server/testing/noticeWorkerChild.ts on `job` until it kills itself at the `killAfter`-th
 * mail (`claimed`: before it leaves; `handed-over`: after, unconfirmed); answers what it sent.
 */
export async function killedMailWorker(options: { url: string; mailFile: string; killAfter: number; when: 'claimed' | 'handed-over'; job: 'notices' | 'reminders' }): Promise<SentLine[]> {
  const { url, mailFile, killAfter, when, job } = options;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/noticeWorkerChild.ts', url, mailFile, String(killAfter), when, job], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, killed) => resolve(killed)));
  expect(signal, said).toBe('SIGKILL');
  const sent = readFileSync(mailFile, 'utf8').trim().split('\n').map((line) => line.split(' ') as SentLine);
  expect(sent).toHaveLength(when === 'claimed' ? killAfter - 1 : killAfter);
  return sent;
}

/** Everyone due got their mail; a duplicate at most once per kill, with the Message-ID of the mail it repeats. */
export function expectEachAtLeastOnce(beforeKill: SentLine[], afterRestart: Mail[], due: number, kills = 1): void {
  const all = [...beforeKill, ...afterRestart.map((mail) => [mail.to, mail.messageId!] as SentLine)];
  expect(new Set(all.map(([to]) => to)).size, 'mails missed').toBe(due);
  const twice = all.filter(([to], i) => all.findIndex(([other]) => other === to) !== i);
  expect(twice.length).toBeLessThanOrEqual(kills);
  for (const [to, id] of twice) expect(all.filter(([other]) => other === to).map(([, each]) => each)).toEqual([id, id]);
}
