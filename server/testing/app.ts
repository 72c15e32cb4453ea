import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../app';
import { loadConfig } from '../infra/config';
import type { Mail, Mailer } from '../infra/mail';
import { eq } from 'drizzle-orm';
import { applications, users } from '../infra/schema';
import { freshDatabase } from './db';

/** A mailer that keeps what it was asked to send, for tests to read codes and links from. */
function memoryMailer() {
  const sent: Mail[] = [];
  const mailer: Mailer = { kind: 'outbox', send: async (mail) => void sent.push(mail) };
  return { mailer, sent };
}

export interface TestApp {
  app: FastifyInstance;
  database: Awaited<ReturnType<typeof freshDatabase>>;
  sent: Mail[];
  /** What the app was started with (its session secret seals staff second factors). */
  config: ReturnType<typeof loadConfig>;
  close(): Promise<void>;
}

/** The real app on a fresh database (PGlite in memory, or a throwaway PostgreSQL database). */
export async function testApp(
  options: {
    kind?: 'pglite' | 'postgres';
    env?: Record<string, string>;
    clientDir?: string;
    faults?: AppDeps['faults'];
    drawLimits?: AppDeps['drawLimits'];
    logger?: AppDeps['logger'];
    /** Another app's database: a second instance on it (closing this one leaves it open). */
    database?: TestApp['database'];
    metrics?: AppDeps['metrics'];
  } = {},
): Promise<TestApp> {
  const shared = options.database;
  const database = shared ?? (await freshDatabase(options.kind ?? 'pglite'));
  if (!shared) await database.migrate();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  // The event loop of a test worker is held up by other suites (a database image loading): the
  // drawn pages' lag check is for a server of its own (server/http/drawBudget.test.ts tests it).
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, CLIENT_DIR: options.clientDir ?? '/nonexistent', DRAW_LAG_LIMIT_MS: '0', ...options.env });
  const { mailer, sent } = memoryMailer();
  const app = await buildApp({ config, database, mailer, faults: options.faults, logger: options.logger, drawLimits: options.drawLimits, metrics: options.metrics });
  return {
    app,
    database,
    sent,
    config,
    close: async () => {
      await app.close();
      if (!shared) await database.dispose();
    },
  };
}

export const TEST_PASSWORD = 'Correct-Horse-42!';

/** Creates a confirmed account directly and signs in through the API; returns the Cookie header. */
export async function signedInCookie(t: TestApp, username = `user-${Math.random().toString(36).slice(2)}@example.com`, headers: Record<string, string> = {}): Promise<string> {
  await t.database.db.insert(users).values({ username, passwordHash: await hash(TEST_PASSWORD), confirmedAt: new Date() });
  const response = await t.app.inject({ method: 'POST', url: '/public/login', headers, payload: { username, password: TEST_PASSWORD } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return cookieHeader(response);
}

/** The Cookie header a browser would send after this response. */
export function cookieHeader(response: LightMyRequestResponse): string {
  return response.cookies
    .filter((c) => c.value !== '')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

/** Waits for mails sent after the response (they go out on the next turn of the event loop). */
export async function waitForMail(sent: Mail[], to: string, count = 1, timeoutMs = 20_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mine = sent.filter((m) => m.to === to);
    if (mine.length >= count) return mine[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail #${count} to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * An applicant who signed in and answered `answer` through the API; `submitted` marks the
 * application submitted directly (the submission's own checks are tested elsewhere). Their id and cookie.
 */
export async function applicantWithAnswers(t: TestApp, username: string, answer: Readonly<Record<string, unknown>>, submitted: boolean): Promise<{ id: string; cookie: string }> {
  const cookie = await signedInCookie(t, username);
  const saved = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: answer, headers: { cookie } });
  if (saved.statusCode !== 200) throw new Error(`saving ${username}'s answers failed: ${saved.body}`);
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (submitted) await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, user!.id));
  return { id: user!.id, cookie };
}
