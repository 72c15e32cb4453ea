import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt } from 'drizzle-orm';
import { IDENTITY_COOKIE_PREFIX, INACTIVITY_TIMEOUT_MS, SESSION_GRACE_MS } from '../../domain/config';
import { clock } from '../infra/clock';
import { isLoopbackUrl } from '../infra/config';
import { SESSION_INVALID_MESSAGE } from '../../domain/messages';
import type { Session } from '../http/handler';
import type { Db } from '../infra/db';
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

/** The session of a cookie token, extended by the idle timeout; null when unknown or expired. */
async function touchSession(db: Db, token: string): Promise<Session | null> {
  const tokenHash = sha256(token);
  const expiresAt = new Date(clock.now().getTime() + SESSION_IDLE_MS);
  const rows = await db
    .update(sessions)
    .set({ expiresAt })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        gt(sessions.expiresAt, clock.now()),
        gt(sessions.createdAt, new Date(clock.now().getTime() - SESSION_MAX_MS)),
      ),
    )
    .returning({ userId: sessions.userId });
  const row = rows[0];
  if (!row) return null;
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, row.userId));
  return user ? { tokenHash, userId: row.userId, username: user.username, expiresAt } : null;
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
