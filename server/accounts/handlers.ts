import { hash, verify } from '@node-rs/argon2';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { normalizeUsername, validateAccountForm, type AccountForm } from '../../domain/rules/account';
import type { FieldErrors } from '../../domain/rules/collect';
import { HttpError } from '../http/errors';
import { signedIn, type Handlers } from '../http/handler';
import { runStatement, statement, type Db } from '../infra/db';
import { hmac, randomToken, sameHash, sixDigitCode } from '../infra/crypto';
import type { Mail, Mailer } from '../infra/mail';
import { assertWithinLimits, TOO_MANY_ATTEMPTS, type Limit } from '../infra/rateLimit';
import { applications, confirmationCodes, logins, passwordResets, sessions, users } from '../infra/schema';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../infra/commonPasswords';
import { getDummyHash, LOGIN_LIMITS } from '../infra/signIn';
import { accountExistsMail, confirmationCodeMail, passwordResetMail } from './mails';
import { storableAnswers } from '../../domain/rules/sentAnswers';
import { clearSessionCookies, endAllSessions, endSession, lastActiveAt, markSessionActive, startSession } from './sessions';

const CODE_TTL_MS = 15 * 60_000;
export const CODE_MAX_FAILED_ATTEMPTS = 5;
export const CODES_PER_DAY = 10;
const RESET_TTL_MS = 60 * 60_000;

export const accountMessages = {
  signedIn: 'You are now signed in.',
  signedUp: 'We sent a confirmation code to your email address. Enter it below to confirm your account.',
  confirmed: 'Your account is confirmed. You can now sign in.',
  codeWrong: 'The confirmation code is incorrect or has expired. Please check it, or ask for a new code.',
  resent: 'If this address has an account waiting for confirmation, we sent it a new code.',
  tooManyCodes: 'You have asked for too many codes today. Please try again tomorrow.',
  forgot: 'If an account exists for this address, we sent it a link to reset the password.',
  reset: 'Your password has been reset. You can now sign in.',
  resetInvalid: 'This reset link is invalid or has expired. Please ask for a new one.',
  badCredentials: 'Incorrect username or password.',
  unconfirmed: 'Your account is not confirmed yet. Enter the code we e-mailed you, or ask for a new one.',
  signedOut: 'You are signed out.',
  tooMany: TOO_MANY_ATTEMPTS,
  invalid: 'Please check the highlighted fields.',
} as const;

/** Strictest on what guesses secrets; per address and per client, in fixed windows. */
const limits = {
  login: LOGIN_LIMITS,
  signup: { address: { max: 5, windowSeconds: 3600 }, client: { max: 50, windowSeconds: 3600 } },
  confirm: { address: { max: 10, windowSeconds: 900 }, client: { max: 100, windowSeconds: 900 } },
  resend: { address: { max: 5, windowSeconds: 3600 }, client: { max: 50, windowSeconds: 3600 } },
  forgot: { address: { max: 5, windowSeconds: 3600 }, client: { max: 50, windowSeconds: 3600 } },
  reset: { address: { max: 10, windowSeconds: 3600 }, client: { max: 100, windowSeconds: 3600 } },
  // Codes mailed to one address a day, counted whether or not it has an account, so the refusal tells nothing.
  codes: { address: { max: CODES_PER_DAY, windowSeconds: 86_400 }, client: { max: 500, windowSeconds: 86_400 } },
} satisfies Record<string, { address: Limit; client: Limit; pair?: Limit }>;

const pairLimit = (limit: keyof typeof limits): Limit | undefined => (limit === 'login' ? limits.login.pair : undefined);

export interface AccountDeps {
  db: Db;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  /** Multiplies every limit (tests that sign up many accounts from one address use a large scale). */
  rateLimitScale: number;
  log: { error: (obj: unknown, msg?: string) => void };
}


/**
 * Every sign-in: the login recorded and the application row made when missing, in one statement
 * (one round trip, no transaction of its own) built once (db.ts `statement`); drizzle built the
 * insert of every default column of the application row again on each sign-in.
 */
const signedInStatement = statement(
  'signed_in',
  sql`with login as (insert into ${logins} (user_id) values (${sql.placeholder('userId')}))
      insert into ${applications} (user_id) values (${sql.placeholder('userId')}) on conflict do nothing`,
);

export function accountHandlers(deps: AccountDeps) {
  const { db, mailer, secret, publicUrl } = deps;

  /** Mail is sent after the answer, so its timing does not tell whether an account exists. */
  const sendLater = (mail: Mail) =>
    setImmediate(() => void mailer.send(mail).catch((error) => deps.log.error(error, `mail to ${mail.to} failed`)));

  /**
   * Work whose cost depends on whether the address has an account (sign-up, resend, forgot password)
   * runs after the answer has been written, so every such answer takes the same time. It runs in
   * order per address; confirm, sign-in and reset in this process wait for it first, so a sign-in
   * right after a sign-up meets the new account.
   */
  const pendingWork = new Map<string, Promise<void>>();
  function afterAnswer(username: string, work: () => Promise<void>) {
    const next = (pendingWork.get(username) ?? Promise.resolve())
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(work)
      .catch((error: unknown) => deps.log.error(error, `account work for ${username} failed`))
      .finally(() => {
        if (pendingWork.get(username) === next) pendingWork.delete(username);
      });
    pendingWork.set(username, next);
  }
  const workDone = (username: string) => pendingWork.get(username) ?? Promise.resolve();

  /**
   * What every account call does first: check the form with the client's own rules (and a new
   * password against the common ones), then count the attempt per address and per client.
   * Throws the 400 or 429; returns the normalised address.
   */
  async function checkAccountCall(form: AccountForm, limit: keyof typeof limits, body: { username: string; password?: string }, ip: string) {
    let errors = validateAccountForm(form, body);
    if (Object.keys(errors).length === 0 && (form === 'signup' || form === 'reset')) errors = newPasswordErrors(body.password ?? '');
    if (Object.keys(errors).length > 0) throw new HttpError(400, accountMessages.invalid, { errors });
    const username = normalizeUsername(body.username);
    await assertWithinLimits(
      db,
      [
        ...(pairLimit(limit) ? [[`${limit}:pair:${ip}:${username}`, pairLimit(limit)!] as [string, Limit]] : []),
        [`${limit}:address:${username}`, limits[limit].address],
        [`${limit}:client:${ip}`, limits[limit].client],
      ],
      deps.rateLimitScale,
    );
    return username;
  }

  /** The daily number of codes an address may be sent; the same refusal for any address. */
  async function assertCodesLeft(username: string, ip: string) {
    try {
      await assertWithinLimits(
        db,
        [
          [`codes:address:${username}`, limits.codes.address],
          [`codes:client:${ip}`, limits.codes.client],
        ],
        deps.rateLimitScale,
      );
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 429) throw new HttpError(429, accountMessages.tooManyCodes, error.details);
      throw error;
    }
  }

  function newPasswordErrors(password: string): FieldErrors {
    return isCommonPassword(password) ? { password: [COMMON_PASSWORD_MESSAGE] } : {};
  }

  /**
   * Cancels earlier codes, stores a new one and returns it, or null when the account itself has had
   * its day's codes (a backstop: the per-address limit refuses earlier, with a message).
   */
  async function issueCode(tx: Db, userId: string): Promise<string | null> {
    const [sent] = await tx
      .select({ n: count() })
      .from(confirmationCodes)
      .where(and(eq(confirmationCodes.userId, userId), gt(confirmationCodes.createdAt, sql`now() - interval '1 day'`)));
    if ((sent?.n ?? 0) >= CODES_PER_DAY) return null;
    await tx
      .update(confirmationCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(confirmationCodes.userId, userId), isNull(confirmationCodes.consumedAt)));
    const code = sixDigitCode();
    await tx.insert(confirmationCodes).values({
      userId,
      codeHash: hmac(secret, `${userId}:${code}`),
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
    return code;
  }

  // Every sign-in, confirmation and reset asks it: prepared once (drizzle builds its text and row mapping once).
  const userByName = db.select().from(users).where(eq(users.username, sql.placeholder('username'))).prepare('user_by_name');
  const findUser = async (username: string) => (await userByName.execute({ username }))[0];

  return {
    signup: async (request, reply) => {
      const username = await checkAccountCall('signup', 'signup', request.body, request.ip);
      await assertCodesLeft(username, request.ip);
      const body = request.body;
      // Hashed before answering in every case: the one costly step is the same for any address.
      const passwordHash = await hash(body.password);
      const answer = storableAnswers(body.answer ?? {});
      afterAnswer(username, async () => {
        const mail = await db.transaction(async (tx) => {
          const [existing] = await tx.select().from(users).where(eq(users.username, username)).for('update');
          if (existing?.confirmedAt) return accountExistsMail(username, publicUrl);
          let userId = existing?.id;
          if (!existing) {
            const [created] = await tx.insert(users).values({ username, passwordHash }).returning({ id: users.id });
            userId = created!.id;
            await tx.insert(applications).values({ userId: userId!, answer }).onConflictDoNothing();
          }
          // Not confirmed yet: a second sign-up changes neither the password nor the answers of the
          // first (whoever raced it would own the account once the mailbox owner confirms); it only
          // mails the address a fresh code. A forgotten first password is reset through the mail.
          const code = await issueCode(tx, userId!);
          return code ? confirmationCodeMail(username, code) : null;
        });
        if (mail) sendLater(mail);
      });
      return reply.code(200).send({ message: accountMessages.signedUp });
    },

    confirm: async (request, reply) => {
      const username = await checkAccountCall('confirm', 'confirm', request.body, request.ip);
      await workDone(username);
      const code = request.body.code.trim();
      const confirmed = await db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.username, username));
        if (!user || user.confirmedAt) return false;
        const [active] = await tx
          .select()
          .from(confirmationCodes)
          .where(and(eq(confirmationCodes.userId, user.id), isNull(confirmationCodes.consumedAt), gt(confirmationCodes.expiresAt, new Date())))
          .orderBy(desc(confirmationCodes.id))
          .limit(1)
          .for('update');
        if (!active) return false;
        if (sameHash(active.codeHash, hmac(secret, `${user.id}:${code}`))) {
          await tx.update(confirmationCodes).set({ consumedAt: new Date() }).where(eq(confirmationCodes.id, active.id));
          await tx.update(users).set({ confirmedAt: new Date() }).where(eq(users.id, user.id));
          return true;
        }
        const failed = active.failedAttempts + 1;
        await tx
          .update(confirmationCodes)
          .set({ failedAttempts: failed, consumedAt: failed >= CODE_MAX_FAILED_ATTEMPTS ? new Date() : null })
          .where(eq(confirmationCodes.id, active.id));
        return false;
      });
      if (!confirmed) throw new HttpError(400, accountMessages.codeWrong, { errors: { code: [accountMessages.codeWrong] } });
      return reply.code(200).send({ message: accountMessages.confirmed });
    },

    resendConfirm: async (request, reply) => {
      const username = await checkAccountCall('resend', 'resend', request.body, request.ip);
      await assertCodesLeft(username, request.ip);
      afterAnswer(username, async () => {
        const user = await findUser(username);
        if (!user || user.confirmedAt) return;
        const code = await db.transaction((tx) => issueCode(tx, user.id));
        if (code) sendLater(confirmationCodeMail(username, code));
      });
      return reply.code(200).send({ message: accountMessages.resent });
    },

    login: async (request, reply) => {
      const username = await checkAccountCall('login', 'login', request.body, request.ip);
      await workDone(username);
      const { password } = request.body;
      const user = await findUser(username);
      const ok = user ? await verify(user.passwordHash, password) : (await verify(await getDummyHash(), password), false);
      if (!user || !ok) throw new HttpError(400, accountMessages.badCredentials);
      if (!user.confirmedAt) throw new HttpError(403, accountMessages.unconfirmed, { code: 'UNCONFIRMED' });
      await runStatement(db, signedInStatement, { userId: user.id });
      await startSession(db, reply, user.id, publicUrl);
      return reply.code(200).send({ message: accountMessages.signedIn });
    },

    logout: signedIn<'logout'>(async (_request, reply, session) => {
      await endSession(db, session.tokenHash);
      clearSessionCookies(reply, publicUrl);
      return reply.code(200).send({ message: accountMessages.signedOut });
    }),

    keepAlive: signedIn<'keepAlive'>(async (_request, reply, session) => {
      await markSessionActive(db, session.tokenHash);
      return reply.code(200).send({ expires_at: session.expiresAt.toISOString() });
    }),
    getSession: signedIn<'getSession'>(async (_request, reply, session) => {
      // Gone since the call's check (signed out meanwhile): long idle.
      const activeAt = (await lastActiveAt(db, session.tokenHash)) ?? new Date(0);
      return reply.code(200).send({ expires_at: session.expiresAt.toISOString(), last_active_at: activeAt.toISOString() });
    }),

    forgotPassword: async (request, reply) => {
      const username = await checkAccountCall('forgot', 'forgot', request.body, request.ip);
      afterAnswer(username, async () => {
        const user = await findUser(username);
        if (!user) return;
        const id = randomToken(24);
        await db.insert(passwordResets).values({ idHash: hmac(secret, id), userId: user.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
        sendLater(passwordResetMail(username, `${publicUrl}/reset?${new URLSearchParams({ username, id })}`));
      });
      return reply.code(200).send({ message: accountMessages.forgot });
    },

    resetPassword: async (request, reply) => {
      const username = await checkAccountCall('reset', 'reset', request.body, request.ip);
      await workDone(username);
      const body = request.body;
      const passwordHash = await hash(body.password);
      const done = await db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.username, username));
        if (!user) return false;
        const used = await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(passwordResets.idHash, hmac(secret, body.id.trim())),
              eq(passwordResets.userId, user.id),
              isNull(passwordResets.usedAt),
              gt(passwordResets.expiresAt, new Date()),
            ),
          )
          .returning({ userId: passwordResets.userId });
        if (used.length === 0) return false;
        // The link proves the mailbox, so an unconfirmed account is confirmed by it too.
        await tx
          .update(users)
          .set({ passwordHash, confirmedAt: user.confirmedAt ?? new Date() })
          .where(eq(users.id, user.id));
        await endAllSessions(tx, user.id);
        return true;
      });
      if (!done) throw new HttpError(400, accountMessages.resetInvalid, { errors: { id: [accountMessages.resetInvalid] } });
      return reply.code(200).send({ message: accountMessages.reset });
    },
  } satisfies Handlers;
}

/**
 * Expired sessions, and codes and reset links expired for a day (the daily code limit counts the
 * last 24 hours), are of no use; removed now and then.
 */
export async function pruneAccountsData(db: Db, now = new Date()) {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  await db.delete(confirmationCodes).where(lt(confirmationCodes.expiresAt, dayAgo));
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, dayAgo));
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}
