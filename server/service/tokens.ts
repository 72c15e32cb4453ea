import { and, eq, gt, lt } from 'drizzle-orm';
import { randomToken, sha256 } from '../infra/crypto';
import type { Db } from '../infra/db';
import { serviceTokens } from '../infra/schema';

/** Print-view tokens (staff reading one application) live minutes. */
export const SERVICE_TOKEN_MINUTES = 10;

/** A new read-only token for one application; only its SHA-256 is stored. */
export async function createServiceToken(db: Db, userId: string, minutes = SERVICE_TOKEN_MINUTES): Promise<string> {
  const token = randomToken(32);
  await db.insert(serviceTokens).values({ tokenHash: sha256(token), userId, expiresAt: new Date(Date.now() + minutes * 60_000) });
  return token;
}

/** The application (user id) a token opens, or null when it is unknown or expired. */
export async function userOfServiceToken(db: Db, token: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: serviceTokens.userId })
    .from(serviceTokens)
    .where(and(eq(serviceTokens.tokenHash, sha256(token)), gt(serviceTokens.expiresAt, new Date())));
  return row?.userId ?? null;
}

export async function pruneServiceTokens(db: Db): Promise<void> {
  await db.delete(serviceTokens).where(lt(serviceTokens.expiresAt, new Date()));
}
