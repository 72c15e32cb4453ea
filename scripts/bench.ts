import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { postgresReason } from '../server/testing/db';
import { benchPhases } from './benchPhase';
import type { BenchResult } from './benchServer';

/**
 * `npm run bench`: every part of the bench in turn, each in a process of its own (benchPhase.ts),
 * their figures beside their floors (issue 14) printed and kept in bench/results.json. The parts
 * that need PostgreSQL are left out, with the reason printed, when it does not answer.
 */
async function runPhase(name: string): Promise<BenchResult[]> {
  const child = fork(path.resolve('scripts/benchPhase.ts'), [name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let results: BenchResult[] | undefined;
  child.once('message', (message) => (results = message as BenchResult[]));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  if (!results) throw new Error(`the bench part "${name}" ended (${signal ?? `exit ${code}`}) without its figures`);
  return results;
}

const reason = await postgresReason();
if (reason) console.log(`postgres: SKIPPED: ${reason}`);
const results: BenchResult[] = [];
for (const phase of benchPhases) if (!(reason && phase.needsPostgres)) results.push(...(await runPhase(phase.name)));
console.log(`\nnpm run bench, ${new Date().toISOString().slice(0, 16)} UTC, ${os.availableParallelism()} cores`);
console.log('figure | value | floor | ratio | budget | holds | load average');
for (const r of results) {
  const ratio = r.ratio === null ? '—' : r.ratio.toFixed(2);
  console.log(`${r.name} | ${r.value} ${r.unit} | ${r.floor ?? '—'} | ${ratio} | ${r.budget} | ${r.holds ? 'yes' : 'NO'} | ${r.load ?? '—'}`);
}
mkdirSync('bench', { recursive: true });
writeFileSync('bench/results.json', JSON.stringify(results, null, 2) + '\n');
const failing = results.filter((r) => !r.holds);
console.log(`\n${results.length - failing.length} of ${results.length} budgets hold${failing.length ? `; not yet: ${failing.map((r) => r.name).join('; ')}` : ''}`);
