import { createHmac, hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe random token with `bytes` bytes of entropy (32 → 256 bits). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** One call (`crypto.hash`), no Hash object: every signed-in call hashes its session token. */
export const sha256 = (value: string) => hash('sha256', value, 'hex');

/** Keyed hash for short secrets (codes, reset ids): without the key a stolen table cannot be brute-forced. */
export const hmac = (key: string, value: string) => createHmac('sha256', key).update(value).digest('hex');

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A uniformly random 6-digit code, leading zeros kept. */
export const sixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
