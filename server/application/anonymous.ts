import { and, eq, gt, lt } from 'drizzle-orm';
import { partnerConfig } from '../../domain/config';
import { accountMessages } from '../../domain/messages';
import { normalizeUsername } from '../../domain/rules/account';
import type { Db } from '../infra/db';
import { randomToken, sha256 } from '../infra/crypto';
import type { Mailer } from '../infra/mail';
import type { Handlers } from '../http/handler';
import { assertWithinLimits } from '../infra/rateLimit';
import { anonymousAnswers } from '../infra/schema';
import { EMAIL_PATTERN } from '../../domain/rules/formats';
import { SAVED_ANSWERS_LINK_INVALID } from '../../domain/messages';
import { storableAnswers } from '../../domain/rules/sentAnswers';
import { HttpError } from '../http/errors';

const ANONYMOUS_TTL_MS = 30 * 86_400_000;

export const anonymousMessages = {
  notFound: SAVED_ANSWERS_LINK_INVALID,
  nothingToSave: 'There are no answers to save yet.',
} as const;

export function anonymousHandlers(deps: { db: Db; mailer: Mailer; publicUrl: string; rateLimitScale: number; log: { error: (o: unknown, m?: string) => void } }) {
  const { db } = deps;
  return {
    saveAnonymousAnswers: async (request, reply) => {
      const body = request.body;
      // Only the form's questions within their bounds: a saved link cannot smuggle anything else into a profile.
      const answer = storableAnswers(body.answer);
      if (Object.keys(answer).length === 0) throw new HttpError(400, anonymousMessages.nothingToSave);
      const email = body.email?.trim() ? normalizeUsername(body.email) : null;
      if (email !== null && !EMAIL_PATTERN.test(email)) {
        throw new HttpError(400, accountMessages.emailInvalid, { errors: { email: [accountMessages.emailInvalid] } });
      }
      const checks: [string, { max: number; windowSeconds: number }][] = [[`tmp-save:client:${request.ip}`, { max: 30, windowSeconds: 3600 }]];
      if (email) checks.push([`tmp-save:address:${email}`, { max: 5, windowSeconds: 3600 }]);
      await assertWithinLimits(db, checks, deps.rateLimitScale);

      const token = randomToken();
      const expiresAt = new Date(Date.now() + ANONYMOUS_TTL_MS);
      await db.insert(anonymousAnswers).values({ tokenHash: sha256(token), answer, expiresAt });
      const url = `${deps.publicUrl}/about?token=${token}`;
      if (email) {
        const text = `Your answers for the ${partnerConfig.applicationTitle} are saved. Continue at ${url} before ${expiresAt.toDateString()}.`;
        setImmediate(() =>
          void deps.mailer
            .send({ to: email, subject: `Finish your ${partnerConfig.name} application`, text: `${text}\n`, html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>` })
            .catch((error) => deps.log.error(error, 'mail of a saved-answers link failed')),
        );
      }
      return reply.code(201).send({ token, url, expires_at: expiresAt.toISOString() });
    },

    getAnonymousAnswers: async (request, reply) => {
      const { token } = request.query;
      await assertWithinLimits(db, [[`tmp-read:client:${request.ip}`, { max: 60, windowSeconds: 900 }]], deps.rateLimitScale);
      const [row] = await db
        .select()
        .from(anonymousAnswers)
        .where(and(eq(anonymousAnswers.tokenHash, sha256(token)), gt(anonymousAnswers.expiresAt, new Date())));
      if (!row) throw new HttpError(404, anonymousMessages.notFound);
      return reply.code(200).send({ answer: row.answer, expires_at: row.expiresAt.toISOString() });
    },
  } satisfies Handlers;
}

export async function pruneAnonymousAnswers(db: Db, now = new Date()) {
  await db.delete(anonymousAnswers).where(lt(anonymousAnswers.expiresAt, now));
}
