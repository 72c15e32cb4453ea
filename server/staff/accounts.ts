import { hash, verify } from '@node-rs/argon2';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { staffMessages, staffPasswordErrors, staffRemovedMessage } from '../../domain/staff';
import { HttpError } from '../http/errors';
import type { Handlers } from '../http/handler';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../infra/commonPasswords';
import { getDummyHash, LOGIN_LIMITS } from '../infra/signIn';
import { clock } from '../infra/clock';
import { randomToken, sha256 } from '../infra/crypto';
import type { Db } from '../infra/db';
import { assertWithinLimits, hitRateLimit, scaled, tooManyAttempts, type Limit } from '../infra/rateLimit';
import { staffRecoveryCodes, staffRemovals, staffSetupTokens, staffUsers } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { acceptedStep, enrolment, newRecoveryCodes, newTotpSecret, openSecret, recoveryCodeHash, sealSecret } from './secondFactor';
import { clearStaffCookie, endStaffSession, startStaffSession, staffCall, type StaffRole } from '../office/sessions';

/** A set-up link lives three days: long enough to reach someone over a weekend, short enough to go stale. */
export const SETUP_LINK_HOURS = 72;

/**
 * Wrong codes in a row (with the right password) before only a recovery code or an administrator
 * gets the account back in: ASVS 2.2.1 / NIST 800-63B allow at most 100. Three time steps are
 * accepted, so 100 guesses succeed with odds of 100 × 3 / 10^6 = 0.03 %, once, not per day.
 */
const TOTP_FAILURES_BEFORE_RECOVERY = 100;

/** Sign-in: the applicants' limits (LOGIN_LIMITS), counted under staff keys. */
const limits = {
  login: LOGIN_LIMITS,
  // A set-up link is a secret of 256 bits; the limit bounds guessing of its TOTP code and the work of hashing.
  setup: { token: { max: 10, windowSeconds: 900 }, client: { max: 50, windowSeconds: 900 } },
} satisfies Record<string, Record<string, Limit>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * A staff account for `email` with a fresh one-time set-up link (the command line's first admin,
 * or an admin's invitation). An account that was never set up gets a new link (its earlier links
 * stop working) and keeps its role unless one is given; an active account is refused.
 */
export async function createSetupLink(
  db: Db,
  options: { email: string; role: StaffRole; sessionSecret: string; publicUrl: string },
): Promise<{ ok: true; url: string; expiresAt: Date; staffId: string } | { ok: false; message: string }> {
  const email = normalizeEmail(options.email);
  if (!EMAIL.test(email) || email.length > 254) return { ok: false, message: staffMessages.emailInvalid };
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(staffUsers).where(eq(staffUsers.email, email)).for('update');
    if (existing?.activatedAt) return { ok: false as const, message: staffMessages.alreadyActive };
    // Invited again after a removal: they may come back, by this link or through the provider.
    await tx.delete(staffRemovals).where(eq(staffRemovals.email, email));
    let staffId = existing?.id;
    if (existing) {
      // A fresh second factor with each link: a secret shown by a voided link finishes nothing.
      await tx.update(staffUsers).set({ role: options.role, totpSecret: sealSecret(options.sessionSecret, newTotpSecret()) }).where(eq(staffUsers.id, existing.id));
      await tx.update(staffSetupTokens).set({ usedAt: new Date() }).where(and(eq(staffSetupTokens.staffId, existing.id), isNull(staffSetupTokens.usedAt)));
    } else {
      const [created] = await tx
        .insert(staffUsers)
        .values({ email, role: options.role, totpSecret: sealSecret(options.sessionSecret, newTotpSecret()) })
        .returning({ id: staffUsers.id });
      staffId = created!.id;
    }
    const token = randomToken(32);
    const expiresAt = new Date(clock.now().getTime() + SETUP_LINK_HOURS * 3_600_000);
    await tx.insert(staffSetupTokens).values({ tokenHash: sha256(token), staffId: staffId!, expiresAt });
    return { ok: true as const, url: `${options.publicUrl}/staff/setup?${new URLSearchParams({ token })}`, expiresAt, staffId: staffId! };
  });
}

export interface StaffAccountDeps {
  db: Db;
  sessionSecret: string;
  publicUrl: string;
  rateLimitScale: number;
}

/** A staff account as the console lists it (StaffMember). */
const staffMemberOf = (row: typeof staffUsers.$inferSelect) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: row.activatedAt ? ('active' as const) : ('invited' as const),
  created_at: row.createdAt.toISOString(),
});

export function staffAccountHandlers(deps: StaffAccountDeps) {
  const { db, sessionSecret, publicUrl } = deps;

  /** The unused, unexpired link's account, or null. */
  async function setupOf(token: string) {
    const [row] = await db
      .select({ staff: staffUsers, tokenHash: staffSetupTokens.tokenHash })
      .from(staffSetupTokens)
      .innerJoin(staffUsers, eq(staffUsers.id, staffSetupTokens.staffId))
      .where(and(eq(staffSetupTokens.tokenHash, sha256(token)), isNull(staffSetupTokens.usedAt), gt(staffSetupTokens.expiresAt, clock.now()), isNull(staffUsers.activatedAt)));
    return row ?? null;
  }

  const setupLimits = (token: string, ip: string) =>
    assertWithinLimits(
      db,
      [
        [`staff-setup:token:${sha256(token)}`, limits.setup.token],
        [`staff-setup:client:${ip}`, limits.setup.client],
      ],
      deps.rateLimitScale,
    );

  return {
    getStaffSetup: async (request, reply) => {
      await setupLimits(request.query.token, request.ip);
      const found = await setupOf(request.query.token);
      if (!found) throw new HttpError(404, staffMessages.setupInvalid);
      // The link discloses the second factor's secret: each opening is on the record.
      await recordAudit(db, { staff: { id: found.staff.id, email: found.staff.email }, action: 'setup_link_view', ip: request.ip });
      const secret = openSecret(sessionSecret, found.staff.totpSecret);
      const { uri, qrSvg } = await enrolment(found.staff.email, secret);
      return reply.code(200).send({ email: found.staff.email, role: found.staff.role, totp_secret: secret, totp_uri: uri, qr_svg: qrSvg });
    },

    finishStaffSetup: async (request, reply) => {
      const { token, password, code } = request.body;
      await setupLimits(token, request.ip);
      const found = await setupOf(token);
      if (!found) throw new HttpError(404, staffMessages.setupInvalid);
      const passwordErrors = staffPasswordErrors(password);
      if (passwordErrors.length === 0 && isCommonPassword(password)) passwordErrors.push(COMMON_PASSWORD_MESSAGE);
      const step = acceptedStep(found.staff.email, openSecret(sessionSecret, found.staff.totpSecret), code, null);
      const errors: Record<string, string[]> = {};
      if (passwordErrors.length) errors.password = passwordErrors;
      if (step === null) errors.code = [staffMessages.codeWrong];
      if (Object.keys(errors).length) throw new HttpError(400, 'Please check the highlighted fields.', { errors });
      const passwordHash = await hash(password);
      const codes = newRecoveryCodes();
      const done = await db.transaction(async (tx) => {
        // Used once: the first of two racing set-ups wins, the other finds the link used.
        const used = await tx
          .update(staffSetupTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(staffSetupTokens.tokenHash, found.tokenHash), isNull(staffSetupTokens.usedAt)))
          .returning({ staffId: staffSetupTokens.staffId });
        if (used.length === 0) return false;
        await tx.update(staffUsers).set({ passwordHash, totpLastStep: step, activatedAt: new Date() }).where(eq(staffUsers.id, found.staff.id));
        await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, found.staff.id));
        await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ staffId: found.staff.id, codeHash: recoveryCodeHash(sessionSecret, found.staff.id, c) })));
        return true;
      });
      if (!done) throw new HttpError(404, staffMessages.setupInvalid);
      await recordAudit(db, { staff: { id: found.staff.id, email: found.staff.email }, action: 'staff_setup', ip: request.ip });
      return reply.code(200).send({ message: staffMessages.setupDone, recovery_codes: codes });
    },

    staffLogin: async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const { password, code } = request.body;
      const recordRefusal = (limit: string) => recordAudit(db, { staff: { id: null, email: email.slice(0, 254) }, action: 'sign_in_refused', detail: { limit }, ip: request.ip });
      const pairKey = `staff-login:pair:${request.ip}:${email}`;
      await assertWithinLimits(
        db,
        [
          [pairKey, limits.login.pair],
          [`staff-login:client:${request.ip}`, limits.login.client],
        ],
        deps.rateLimitScale,
        (key) => recordRefusal(key === pairKey ? 'pair' : 'client'),
      );
      // The address's own limit stops guessing from many clients, but must not let a stranger who
      // knows only the address keep its owner out: past it, only the right password and the right
      // code get in (issue 29, item 6). Both are needed, so it tells a guesser nothing.
      const addressHit = await hitRateLimit(db, `staff-login:address:${email}`, scaled(limits.login.address, deps.rateLimitScale));
      const [staff] = await db.select().from(staffUsers).where(eq(staffUsers.email, email));
      const passwordOk = staff?.passwordHash ? await verify(staff.passwordHash, password) : (await verify(await getDummyHash(), password), false);
      const secondFactor = staff && passwordOk && staff.activatedAt ? await checkSecondFactor(staff, code) : null;
      if (!staff || !secondFactor) {
        const codesLocked = Boolean(passwordOk && staff?.activatedAt && staff.totpFailures >= TOTP_FAILURES_BEFORE_RECOVERY);
        if (!addressHit.allowed && !codesLocked) {
          await recordRefusal('address');
          throw tooManyAttempts(addressHit.retryAfterSeconds);
        }
        await recordAudit(db, {
          staff: { id: staff?.id ?? null, email: email.slice(0, 254) },
          action: 'sign_in_failed',
          detail: { reason: !staff || !passwordOk || !staff.activatedAt ? 'password' : codesLocked ? 'codes_locked' : 'code' },
          ip: request.ip,
        });
        // Only someone with the password reads this: the owner, told how to get back in.
        if (codesLocked) throw new HttpError(400, staffMessages.codesLocked, { errors: { code: [staffMessages.codesLocked] } });
        throw new HttpError(400, staffMessages.badCredentials);
      }
      await startStaffSession(db, reply, staff.id, publicUrl);
      await recordAudit(db, { staff: { id: staff.id, email: staff.email }, action: 'sign_in', detail: { factor: secondFactor }, ip: request.ip });
      return reply.code(200).send({ email: staff.email, role: staff.role });
    },

    staffLogout: staffCall<'staffLogout'>('reader', async (request, reply, staff) => {
      await endStaffSession(db, staff.tokenHash);
      clearStaffCookie(reply, publicUrl);
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'sign_out', ip: request.ip });
      return reply.code(200).send({ message: staffMessages.signedOut });
    }),

    staffKeepAlive: staffCall<'staffKeepAlive'>('reader', async (_request, reply, staff) => reply.code(200).send({ expires_at: staff.expiresAt.toISOString() })),

    getStaffMe: staffCall<'getStaffMe'>('reader', async (_request, reply, staff) => reply.code(200).send({ email: staff.email, role: staff.role })),

    listStaff: staffCall<'listStaff'>('admin', async (_request, reply) => {
      const rows = await db.select().from(staffUsers).orderBy(asc(staffUsers.email));
      return reply.code(200).send(
        rows.map(staffMemberOf),
      );
    }),

    inviteStaff: staffCall<'inviteStaff'>('admin', async (request, reply, staff) => {
      const made = await createSetupLink(db, { email: request.body.email, role: request.body.role, sessionSecret, publicUrl });
      if (!made.ok) {
        const status = made.message === staffMessages.alreadyActive ? 409 : 400;
        throw new HttpError(status, made.message, status === 400 ? { errors: { email: [made.message] } } : {});
      }
      const email = normalizeEmail(request.body.email);
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'staff_invite', detail: { invited: email, role: request.body.role }, ip: request.ip });
      return reply.code(201).send({ email, role: request.body.role, setup_url: made.url, expires_at: made.expiresAt.toISOString() });
    }),

    removeStaff: staffCall<'removeStaff'>('admin', async (request, reply, staff) => {
      const { staff_id } = request.params;
      if (staff_id === staff.staffId) throw new HttpError(409, staffMessages.cannotRemoveSelf);
      // One transaction over the admins' rows, locked: two admins removing each other at the same
      // moment take turns, and the second finds itself gone (issue 29). The caller's session was
      // checked before; its account is checked again here. Sessions and set-up links go with the
      // account (cascade): the member's next call is a 401.
      const outcome = await db.transaction(async (tx) => {
        const admins = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.role, 'admin')).for('update');
        if (!admins.some((row) => row.id === staff.staffId)) return 'callerGone' as const;
        const [removed] = await tx.delete(staffUsers).where(eq(staffUsers.id, staff_id)).returning({ email: staffUsers.email, role: staffUsers.role });
        if (!removed) return 'notFound' as const;
        // The institution's provider does not bring them back; an invitation does (issue 49, item 7).
        const removal = { email: removed.email, removedByEmail: staff.email, removedAt: clock.now() };
        await tx.insert(staffRemovals).values(removal).onConflictDoUpdate({ target: staffRemovals.email, set: removal });
        return removed;
      });
      if (outcome === 'callerGone') throw new HttpError(401, staffMessages.sessionEnded);
      if (outcome === 'notFound') throw new HttpError(404, staffMessages.staffNotFound);
      const removed = outcome;
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'staff_remove', detail: { removed: removed.email, role: removed.role }, ip: request.ip });
      return reply.code(200).send({ message: staffRemovedMessage(removed.email) });
    }),

    changeStaffRole: staffCall<'changeStaffRole'>('admin', async (request, reply, staff) => {
      const { staff_id } = request.params;
      const { role } = request.body;
      // As a removal: the admins' rows locked, so two admins changing each other's roles at once
      // take turns and the second finds the office's last admin (or itself no longer one).
      const outcome = await db.transaction(async (tx) => {
        const admins = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.role, 'admin')).for('update');
        if (!admins.some((row) => row.id === staff.staffId)) return 'callerNotAdmin' as const;
        const [member] = await tx.select().from(staffUsers).where(eq(staffUsers.id, staff_id)).for('update');
        if (!member) return 'notFound' as const;
        if (member.role === 'admin' && role !== 'admin' && admins.length === 1) return 'lastAdmin' as const;
        await tx.update(staffUsers).set({ role }).where(eq(staffUsers.id, staff_id));
        return { member, from: member.role };
      });
      if (outcome === 'callerNotAdmin') throw new HttpError(403, staffMessages.adminOnly);
      if (outcome === 'notFound') throw new HttpError(404, staffMessages.staffNotFound);
      if (outcome === 'lastAdmin') throw new HttpError(409, staffMessages.lastAdmin);
      const { member, from } = outcome;
      if (from !== role) {
        await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'staff_role_change', detail: { member: member.email, from, to: role }, ip: request.ip });
      }
      return reply.code(200).send(staffMemberOf({ ...member, role }));
    }),
  } satisfies Handlers;

  /**
   * 'totp' or 'recovery_code' when the code is good (and then used up), else null. Called only
   * with the right password: wrong codes in a row are counted on the account, and after
   * TOTP_FAILURES_BEFORE_RECOVERY of them only a recovery code gets in (NIST 800-63B 5.2.2).
   */
  async function checkSecondFactor(staff: typeof staffUsers.$inferSelect, code: string): Promise<'totp' | 'recovery_code' | null> {
    const trimmed = code.trim();
    let outcome: 'totp' | 'recovery_code' | null = null;
    if (/^\d[\d\s]*$/.test(trimmed)) {
      const step = staff.totpFailures < TOTP_FAILURES_BEFORE_RECOVERY ? acceptedStep(staff.email, openSecret(sessionSecret, staff.totpSecret), trimmed, staff.totpLastStep) : null;
      // Only a later step moves it: of two sign-ins racing with one code, one wins.
      const moved =
        step === null
          ? []
          : await db
              .update(staffUsers)
              .set({ totpLastStep: step, totpFailures: 0 })
              .where(and(eq(staffUsers.id, staff.id), staff.totpLastStep === null ? isNull(staffUsers.totpLastStep) : eq(staffUsers.totpLastStep, staff.totpLastStep)))
              .returning({ id: staffUsers.id });
      if (moved.length) outcome = 'totp';
    } else {
      const used = await db
        .update(staffRecoveryCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(staffRecoveryCodes.staffId, staff.id), eq(staffRecoveryCodes.codeHash, recoveryCodeHash(sessionSecret, staff.id, trimmed)), isNull(staffRecoveryCodes.usedAt)))
        .returning({ id: staffRecoveryCodes.id });
      if (used.length) {
        outcome = 'recovery_code';
        await db.update(staffUsers).set({ totpFailures: 0 }).where(eq(staffUsers.id, staff.id));
      }
    }
    if (outcome === null) await db.update(staffUsers).set({ totpFailures: sql`${staffUsers.totpFailures} + 1` }).where(eq(staffUsers.id, staff.id));
    return outcome;
  }
}
