import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { IDENTITY_COOKIE_PREFIX, INACTIVITY_TIMEOUT_MS, SESSION_GRACE_MS } from '../../domain/config';
import { clock } from '../infra/clock';
import { isLoopbackUrl } from '../infra/config';
import { SESSION_INVALID_MESSAGE } from '../../domain/messages';
import type { Session } from '../http/handler';
import { rowsOf, type Db } from '../infra/db';
import { randomToken, sha256 } from '../infra/crypto';
import { sessions, users } from '../infra/schema';

const SESSION_COOKIE = 'portal_session';
/** Readable marker; the client infers "logged in" from a cookie with the identity-provider prefix. */
const MARKER_COOKIE = `${IDENTITY_COOKIE_PREFIX}session`;
/** Idle sessions expire on the server after the page's 15 minutes and a grace: never before the page's timer. */
const SESSION_IDLE_MS = INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS;
/** However active, a session ends this long after sign-in (a stolen cookie does not live forever). */
const SESSION_MAX_MS = 12 * 3_600_000;

/** Cookies are Secure everywhere except a local address served over plain http. */
function cookieOptions(publicUrl: string) {
  return { path: '/', sameSite: 'lax' as const, secure: new URL(publicUrl).protocol === 'https:' || !isLoopbackUrl(publicUrl) };
}

export async function startSession(db: Db, reply: FastifyReply, userId: string, publicUrl: string) {
  const token = randomToken();
  const expiresAt = new Date(clock.now().getTime() + SESSION_IDLE_MS);
  await db.insert(sessions).values({ tokenHash: sha256(token), userId, expiresAt });
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
async function touchSession(db: Db, token: string): Promise<Session | null> {
  const tokenHash = sha256(token);
  const now = clock.now();
  const extended = new Date(now.getTime() + SESSION_IDLE_MS);
  const result = await db.execute(sql`
    with found as (
      select s.user_id, s.expires_at, u.username
      from ${sessions} s join ${users} u on u.id = s.user_id
      where s.token_hash = ${tokenHash} and s.expires_at > ${now} and s.created_at > ${new Date(now.getTime() - SESSION_MAX_MS)}
    ), moved as (
      update ${sessions} set expires_at = ${extended}
      where token_hash = ${tokenHash} and expires_at < ${new Date(extended.getTime() - EXTEND_EVERY_MS)} and exists (select 1 from found)
      returning expires_at
    )
    select found.user_id, found.username, coalesce((select expires_at from moved), found.expires_at) as expires_at from found`);
  const row = rowsOf<{ user_id: string; username: string; expires_at: Date | string }>(result)[0];
  return row ? { tokenHash, userId: row.user_id, username: row.username, expiresAt: new Date(row.expires_at) } : null;
}

/**
 * Every /api call needs a valid session; checked in onRequest so that an anonymous caller gets 401
 * before any input validation. A stale cookie is cleared with the answer.
 */
export function registerSessionAuth(app: FastifyInstance, db: Db, publicUrl: string) {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    request.session = token ? await touchSession(db, token) : null;
    if (!request.session) {
      clearSessionCookies(reply, publicUrl);
      return reply.code(401).send({ message: SESSION_INVALID_MESSAGE });
    }
  });
}

export async function endSession(db: Db, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function endAllSessions(db: Db, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
