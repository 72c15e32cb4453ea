import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { IDENTITY_COOKIE_PREFIX, INACTIVITY_TIMEOUT_MS, SESSION_GRACE_MS } from '../../domain/config';
import { clock } from '../infra/clock';
import { secureCookies } from '../http/paths';
import { ACCOUNT_CHANGED_MESSAGE, SESSION_INVALID_MESSAGE } from '../../domain/messages';
import type { Session } from '../http/handler';
import { runStatement, statement, type Database, type Db } from '../infra/db';
import { randomToken, sha256 } from '../infra/crypto';
import { sessions, users } from '../infra/schema';
import { HttpError } from '../http/errors';

const SESSION_COOKIE = 'portal_session';
/** Readable marker; the client infers "logged in" from a cookie with the identity-provider prefix. */
const MARKER_COOKIE = `${IDENTITY_COOKIE_PREFIX}session`;
/** Idle sessions expire on the server after the page's 15 minutes and a grace: never before the page's timer. */
const SESSION_IDLE_MS = INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS;
/** However active, a session ends this long after sign-in (a stolen cookie does not live forever). */
const SESSION_MAX_MS = 12 * 3_600_000;


function cookieOptions(publicUrl: string) {
  return { path: '/', sameSite: 'lax' as const, secure: secureCookies(publicUrl) };
}

const startSessionStatement = statement(
  'start_session',
  sql`insert into ${sessions} (token_hash, user_id, expires_at, created_at) values (${sql.placeholder('tokenHash')}, ${sql.placeholder('userId')}, ${sql.placeholder('expiresAt')}, ${sql.placeholder('createdAt')})`,
);

export async function startSession(db: Db, reply: FastifyReply, userId: string, publicUrl: string) {
  const token = randomToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
  // Started on the server's clock, not the database's: the 12-hour limit is read against the same clock (a test's clock moves).
  await runStatement(db, startSessionStatement, { tokenHash: sha256(token), userId, expiresAt, createdAt: now });
  const options = cookieOptions(publicUrl);
  reply.setCookie(SESSION_COOKIE, token, { ...options, httpOnly: true });
  reply.setCookie(MARKER_COOKIE, '1', { ...options, httpOnly: false });
}

export function clearSessionCookies(reply: FastifyReply, publicUrl: string) {
  const options = cookieOptions(publicUrl);
  reply.clearCookie(SESSION_COOKIE, { ...options, httpOnly: true });
  reply.clearCookie(MARKER_COOKIE, options);
}

/** A session's expiry is written again only when it would move by more than this (one write a minute at most). */
const EXTEND_EVERY_MS = 60_000;

/**
 * The session of a cookie token, extended by the idle timeout; null when unknown or expired. One
 * statement: it finds the session with its user and moves the expiry only when it is more than a
 * minute behind, so a busy page writes at most once a minute. The idle limit (15 + 2 minutes) is
 * then 16 to 17 minutes after the last call: still longer than the page's 15.
 */
const touchSessionStatement = statement(
  'touch_session',
  sql`
    with found as (
      select s.user_id, s.expires_at, s.created_at, u.username
      from ${sessions} s join ${users} u on u.id = s.user_id
      where s.token_hash = ${sql.placeholder('tokenHash')} and s.expires_at > ${sql.placeholder('now')} and s.created_at > ${sql.placeholder('startedAfter')}
    ), moved as (
      update ${sessions} set expires_at = ${sql.placeholder('extended')}
      where token_hash = ${sql.placeholder('tokenHash')} and expires_at < ${sql.placeholder('moveBefore')} and exists (select 1 from found)
      returning expires_at
    )
    select found.user_id, found.username, found.created_at, coalesce((select expires_at from moved), found.expires_at) as expires_at from found`,
);

/** The session of a token as it stands, not extended (GET /api/session: a look must not keep it alive). */
const peekSessionStatement = statement(
  'peek_session',
  sql`select s.user_id, u.username, s.expires_at, s.created_at from ${sessions} s join ${users} u on u.id = s.user_id
    where s.token_hash = ${sql.placeholder('tokenHash')} and s.expires_at > ${sql.placeholder('now')} and s.created_at > ${sql.placeholder('startedAfter')}`,
);

async function peekSession(db: Db, tokenHash: string): Promise<Session | null> {
  const now = clock.now();
  const [row] = await runStatement<{ user_id: string; username: string; expires_at: Date | string }>(db, peekSessionStatement, {
    tokenHash,
    now,
    startedAfter: new Date(now.getTime() - SESSION_MAX_MS),
  });
  return row ? { tokenHash, userId: row.user_id, username: row.username, expiresAt: new Date(row.expires_at) } : null;
}

/**
 * A person used the session just now (a page's keep-alive, sent on activity in any tab at most once
 * a minute): GET /api/session tells the tabs so. Not every call: a completion page's polls and a
 * save's retries are no one's activity.
 */
export async function markSessionActive(db: Db, tokenHash: string): Promise<void> {
  await db.update(sessions).set({ activeAt: clock.now() }).where(eq(sessions.tokenHash, tokenHash));
}

/** When a person last used the session, in any tab: the last keep-alive, or the sign-in. */
export async function lastActiveAt(db: Db, tokenHash: string): Promise<Date | null> {
  const [row] = await db.select({ activeAt: sessions.activeAt, createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.tokenHash, tokenHash));
  return row ? (row.activeAt ?? row.createdAt) : null;
}

/** Calls that read the session without using it: it is not extended. */
const lookingCalls = new Set(['/api/session']);

async function touchSession(db: Db, tokenHash: string): Promise<{ session: Session; validUntil: number } | null> {
  const now = clock.now();
  const extended = new Date(now.getTime() + SESSION_IDLE_MS);
  const [row] = await runStatement<{ user_id: string; username: string; expires_at: Date | string; created_at: Date | string }>(db, touchSessionStatement, {
    tokenHash,
    now,
    startedAfter: new Date(now.getTime() - SESSION_MAX_MS),
    extended,
    moveBefore: new Date(extended.getTime() - EXTEND_EVERY_MS),
  });
  if (!row) return null;
  const expiresAt = new Date(row.expires_at);
  const session = { tokenHash, userId: row.user_id, username: row.username, expiresAt };
  return { session, validUntil: Math.min(expiresAt.getTime(), new Date(row.created_at).getTime() + SESSION_MAX_MS) };
}

/** How many distinct sessions one process keeps in memory; the oldest kept is dropped first. */
const CACHE_MAX = 50_000;

/**
 * Sessions this process checked in the last minute, so most calls make no session query. Safe
 * with several instances: the database announces every ended session (a trigger's NOTIFY on
 * `session_ended`) and every process forgets it; while the process is not listening, nothing is
 * served from memory. A call goes to the database whenever the expiry is due to move (so the idle
 * limit is exactly what it is without the cache) and at least once a minute in any case.
 */
class SessionCache {
  private readonly entries = new Map<string, { session: Session; validUntil: number; verifiedAt: number }>();
  private listening = false;
  /** Bumped by every ended session: a check that overlapped one is not kept (it may be stale). */
  endings = 0;

  setListening(listening: boolean) {
    this.listening = listening;
    this.entries.clear();
  }
  get(tokenHash: string, now: number): Session | null {
    const entry = this.listening ? this.entries.get(tokenHash) : undefined;
    if (!entry) return null;
    // Past its end, its expiry due to move (exactly when the database would move it), due for its
    // minutely check, or the (test) clock moved back: the database decides.
    const extensionDue = entry.session.expiresAt.getTime() < now + SESSION_IDLE_MS - EXTEND_EVERY_MS;
    if (now >= entry.validUntil || extensionDue || now - entry.verifiedAt >= EXTEND_EVERY_MS || now < entry.verifiedAt) {
      this.entries.delete(tokenHash);
      return null;
    }
    return entry.session;
  }
  put(session: Session, validUntil: number, now: number, endingsBefore: number) {
    if (!this.listening || endingsBefore !== this.endings) return;
    if (this.entries.size >= CACHE_MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(session.tokenHash, { session, validUntil, verifiedAt: now });
  }
  forget(tokenHash: string) {
    this.endings++;
    this.entries.delete(tokenHash);
  }
  forgetUser(userId: string) {
    this.endings++;
    for (const [tokenHash, entry] of this.entries) if (entry.session.userId === userId) this.entries.delete(tokenHash);
  }
}

/** Every app's cache in this process: an ending here is forgotten at once, before its notice arrives. */
const caches = new Set<SessionCache>();

/** Calls that act on the session itself, not on an application: no page binding. */
const unboundCalls = new Set(['/api/logout', '/api/keep-alive']);

/**
 * Every /api call needs a valid session; checked in onRequest so that an anonymous caller gets 401
 * before any input validation. A stale cookie is cleared with the answer.
 */
export async function registerSessionAuth(app: FastifyInstance, database: Database, publicUrl: string) {
  const { db } = database;
  const cache = new SessionCache();
  caches.add(cache);
  const stopListening = await database.listen('session_ended', (tokenHash) => cache.forget(tokenHash), (listening) => cache.setListening(listening));
  app.addHook('onClose', async () => {
    caches.delete(cache);
    await stopListening();
  });
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    request.session = !token ? null : lookingCalls.has(request.url) ? await peekSession(db, sha256(token)) : await sessionOf(db, cache, token);
    if (!request.session) {
      clearSessionCookies(reply, publicUrl);
      throw new HttpError(401, SESSION_INVALID_MESSAGE);
    }
    // A page loaded for another account (a tab left open while someone else signed in) writes
    // nothing. Logging out and staying signed in end or keep whoever is signed in now.
    const bound = request.headers['x-application-id'];
    if (typeof bound === 'string' && request.method !== 'GET' && !unboundCalls.has(request.url) && bound.toLowerCase() !== request.session.userId) {
      throw new HttpError(409, ACCOUNT_CHANGED_MESSAGE, { code: 'ACCOUNT_CHANGED' });
    }
  });
}

async function sessionOf(db: Db, cache: SessionCache, token: string): Promise<Session | null> {
  const now = clock.now().getTime();
  const tokenHash = sha256(token);
  const cached = cache.get(tokenHash, now);
  if (cached) return cached;
  const endingsBefore = cache.endings;
  const found = await touchSession(db, tokenHash);
  if (found) cache.put(found.session, found.validUntil, now, endingsBefore);
  return found?.session ?? null;
}

export async function endSession(db: Db, tokenHash: string) {
  for (const cache of caches) cache.forget(tokenHash);
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Inside a transaction too: forgotten here at once, and everywhere by the notices after it commits. */
export async function endAllSessions(db: Db, userId: string) {
  for (const cache of caches) cache.forgetUser(userId);
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
