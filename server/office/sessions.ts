import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { INACTIVITY_TIMEOUT_MS, SESSION_GRACE_MS } from '../../domain/config';
import { staffMessages, staffRoleCovers, type StaffRole } from '../../domain/staff';
import { clock } from '../infra/clock';
import { secureCookies } from '../http/paths';
import { randomToken, sha256 } from '../infra/crypto';
import { rowsOf, type Db } from '../infra/db';
import { staffSessions, staffUsers } from '../infra/schema';
import { HttpError } from '../http/errors';
import type { Handler, OperationId, TypedReply, TypedRequest } from '../http/handler';
import { hookFor } from '../http/hookFor';

const STAFF_COOKIE = 'staff_session';
/** Sent only to the console and its calls: an applicant's pages and calls never carry it. */
const STAFF_COOKIE_PATH = '/staff';
const IDLE_MS = INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS;
/** However active, a staff session ends this long after sign-in. */
const MAX_MS = 12 * 3_600_000;
const EXTEND_EVERY_MS = 60_000;

export type { StaffRole };

export interface StaffSession {
  tokenHash: string;
  staffId: string;
  email: string;
  role: StaffRole;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffSession | null;
  }
}

function cookieOptions(publicUrl: string) {
  // Strict: a link from another site (a mail, a page) opens the console signed out.
  return { path: STAFF_COOKIE_PATH, sameSite: 'strict' as const, httpOnly: true, secure: secureCookies(publicUrl) };
}

export async function startStaffSession(db: Db, reply: FastifyReply, staffId: string, publicUrl: string) {
  const token = randomToken();
  const now = clock.now();
  await db.insert(staffSessions).values({ tokenHash: sha256(token), staffId, createdAt: now, expiresAt: new Date(now.getTime() + IDLE_MS) });
  reply.setCookie(STAFF_COOKIE, token, cookieOptions(publicUrl));
}

export function clearStaffCookie(reply: FastifyReply, publicUrl: string) {
  reply.clearCookie(STAFF_COOKIE, cookieOptions(publicUrl));
}

export async function endStaffSession(db: Db, tokenHash: string) {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash));
}

/** The session of a token, its expiry moved by the idle time (at most once a minute); null when unknown or over. */
async function touchStaffSession(db: Db, tokenHash: string): Promise<StaffSession | null> {
  const now = clock.now();
  const extended = new Date(now.getTime() + IDLE_MS);
  const [row] = rowsOf<{ staff_id: string; email: string; role: StaffRole; expires_at: Date | string }>(await db.execute(sql`
    with found as (
      select s.staff_id, s.expires_at, u.email, u.role
      from ${staffSessions} s join ${staffUsers} u on u.id = s.staff_id
      where s.token_hash = ${tokenHash} and s.expires_at > ${now} and s.created_at > ${new Date(now.getTime() - MAX_MS)} and u.activated_at is not null
    ), moved as (
      update ${staffSessions} set expires_at = ${extended}
      where token_hash = ${tokenHash} and expires_at < ${new Date(extended.getTime() - EXTEND_EVERY_MS)} and exists (select 1 from found)
      returning expires_at
    )
    select found.staff_id, found.email, found.role, coalesce((select expires_at from moved), found.expires_at) as expires_at from found`));
  if (!row) return null;
  return { tokenHash, staffId: row.staff_id, email: row.email, role: row.role, expiresAt: new Date(row.expires_at) };
}

/**
 * Every /staff/api/ call needs a staff session, checked before anything else (an applicant's
 * cookie is not read here at all); a stale cookie is cleared with the 401.
 */
export function registerStaffAuth(app: FastifyInstance, db: Db, publicUrl: string) {
  app.decorateRequest('staff', null);
  app.addHook('onRequest', hookFor((request) => request.url.startsWith('/staff/api/'), async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[STAFF_COOKIE];
    request.staff = token ? await touchStaffSession(db, sha256(token)) : null;
    if (!request.staff) {
      if (token) clearStaffCookie(reply, publicUrl);
      throw new HttpError(401, staffMessages.sessionEnded);
    }
  }));
}

/** A handler of a staff call, given its session; `admin` ones answer 403 to a reader. */
export function staffCall<Id extends OperationId>(
  role: StaffRole,
  handle: (request: TypedRequest<Id>, reply: TypedReply<Id>, staff: StaffSession) => ReturnType<Handler<Id>>,
): Handler<Id> {
  return function (request, reply) {
    const { staff } = request;
    if (!staff) throw new HttpError(401, staffMessages.sessionEnded);
    if (!staffRoleCovers(staff.role, role)) throw new HttpError(403, role === 'admin' ? staffMessages.adminOnly : staffMessages.deciderOnly);
    return handle(request, reply, staff);
  } as Handler<Id>;
}

