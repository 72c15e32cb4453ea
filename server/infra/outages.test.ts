import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { onUnhandledRejection } from './outages';

const refusing = () => Object.assign(new Error('database "portal" is not currently accepting connections'), { code: '55000' });

describe('a rejection no one handled (issue 49, item 9)', () => {
  it.each([
    { reason: refusing(), ends: false, why: 'the database refuses connections (55000)' },
    { reason: new Error('wrapped', { cause: Object.assign(new Error('terminating connection'), { code: '57P01' }) }), ends: false, why: 'the database shut down, wrapped by the ORM' },
    { reason: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), ends: false, why: 'nothing listens' },
    { reason: Object.assign(new Error('some other state'), { code: '55000' }), ends: true, why: "55000 of a bug's (not the refusal's text)" },
    { reason: new TypeError('undefined is not a function'), ends: true, why: 'a bug' },
  ])('$why: the process ends = $ends', ({ reason, ends }) => {
    const exits: number[] = [];
    const logged: string[] = [];
    onUnhandledRejection((message) => logged.push(message), (code) => exits.push(code))(reason);
    expect(exits).toEqual(ends ? [1] : []);
    expect(logged).toHaveLength(1);
  });

  // A real process: Node's own default ends it at the first unhandled rejection; with the handler
  // installed, the outage is survived and the bug is not.
  it('a process with the handler outlives an outage and still ends at a bug', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/outageChild.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toContain('alive after the outage');
    expect(out).not.toContain('alive after the bug');
    expect(code).toBe(1);
  }, 30_000);
});
