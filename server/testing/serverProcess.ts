/**
 * The real server as its own process, for the suites that kill it, restart it, or run two of it:
 * started on a free port of 127.0.0.1 with its own environment, waited for through /healthz.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { descendantsOf } from '../infra/browser';
import { throwawayPostgres } from './db';

const PASSWORD = 'Correct-Horse-42!';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Polls `check` until it returns a value, for at most `seconds`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, seconds = 120): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

/** One server process on a data folder (and a database URL), started and killed by the test. */
export class ServerProcess {
  child: ChildProcess | null = null;
  port = 0;
  constructor(
    private readonly env: Record<string, string>,
    private readonly clientDir = '/nonexistent',
    /** The web server, or `server/worker.ts` (no HTTP: started, not waited for). */
    private readonly script: 'server/main.ts' | 'server/worker.ts' = 'server/main.ts',
  ) {}
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start() {
    this.port ||= await freePort();
    this.child = spawn(process.execPath, ['--import', 'tsx', this.script], {
      env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(this.port), PUBLIC_URL: `http://127.0.0.1:${this.port}`, CLIENT_DIR: this.clientDir, RATE_LIMIT_SCALE: '100', ...this.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    this.child.stderr!.on('data', (chunk) => (stderr += chunk));
    const child = this.child;
    if (this.script === 'server/worker.ts') return;
    await until('the server to answer /healthz', async () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      return (await fetch(`${this.url}/healthz`)).ok ? true : undefined;
    });
  }
  /** SIGKILL: no shutdown hook runs, nothing is flushed. Returns the pids it had started. */
  kill(): number[] {
    const pid = this.child!.pid!;
    const children = descendantsOf(pid);
    this.child!.kill('SIGKILL');
    return children;
  }
  async stop() {
    // A child killed by a signal has no exit code, only a signal code.
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child!.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
  }
  call(method: string, url: string, cookie: string, body?: unknown) {
    return fetch(this.url + url, { method, headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  }
}

/** A confirmed, signed-in account on the server (the code read from the dev outbox); returns its Cookie header. */
/** Used by Vitest and Playwright suites alike: plain errors, no runner's expect. */
function ok(response: Response, what: string) {
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}`);
}

export async function account(server: ServerProcess, username: string): Promise<string> {
  ok(await server.call('POST', '/public/signup', '', { username, password: PASSWORD }), 'sign-up');
  const code = await until('the confirmation mail', async () => {
    const mails = (await (await server.call('GET', `/dev/outbox?to=${encodeURIComponent(username)}`, '')).json()) as { text: string }[];
    return /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1];
  });
  ok(await server.call('POST', '/public/confirm', '', { username, code }), 'confirm');
  return signIn(server, username);
}

/** A new session of an account made by `account`: its cookies as a Cookie header. */
export async function signIn(server: ServerProcess, username: string): Promise<string> {
  const login = await server.call('POST', '/public/login', '', { username, password: PASSWORD });
  ok(login, 'sign-in');
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** A fresh PostgreSQL database for a server process; `drops` collects how to drop it (dropAll). */
export async function freshPostgres(drops: (() => Promise<void>)[]): Promise<string> {
  const { url, drop } = await throwawayPostgres();
  drops.push(drop);
  return url;
}

/** Drops the databases freshPostgres made. */
export async function dropAll(drops: (() => Promise<void>)[]): Promise<void> {
  await Promise.all(drops.splice(0).map((drop) => drop()));
}
