import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { RECOVERY_CODE_COUNT } from '../../domain/staff';
import { clock } from '../infra/clock';
import { hmac } from '../infra/crypto';

const ISSUER = 'Admissions portal';
const PERIOD_SECONDS = 30;

/** The key that seals TOTP secrets at rest, derived from SESSION_SECRET (a stolen table alone is not enough). */
const sealKey = (sessionSecret: string) => createHash('sha256').update(`staff-totp:${sessionSecret}`).digest();

/** AES-256-GCM: iv.tag.ciphertext, base64url. */
export function sealSecret(sessionSecret: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(sessionSecret), iv);
  const sealed = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function openSecret(sessionSecret: string, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(sessionSecret), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
}

/** A new random TOTP secret (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

const totpOf = (email: string, base32: string) =>
  new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32) });

/** What an authenticator app needs: the otpauth URI and the same as a QR code (SVG). */
export async function enrolment(email: string, base32: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = totpOf(email, base32).toString();
  // Dark modules on white with a quiet zone: what phone cameras read best.
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
  return { uri, qrSvg };
}

/**
 * The time step of a valid code (the one before and after allowed, for clocks that drift), or
 * null. A step at or before `lastStep` was used already: a code is good once (ASVS 2.8.4).
 */
export function acceptedStep(email: string, base32: string, code: string, lastStep: number | null): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = clock.now().getTime();
  const delta = totpOf(email, base32).validate({ token, timestamp, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The code an authenticator shows now (for the command line's own check and the tests). */
export const currentCode = (base32: string, timestamp = clock.now().getTime()) => totpOf('x', base32).generate({ timestamp });

/** Letters and digits nobody misreads (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten one-time recovery codes like `k7d2-9xq4` (about 49 bits each). */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 4 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

/** How a recovery code is stored and compared: lower case, no spaces or dashes, keyed to its owner. */
export const recoveryCodeHash = (sessionSecret: string, staffId: string, code: string) =>
  hmac(sessionSecret, `recovery:${staffId}:${code.toLowerCase().replace(/[\s-]+/g, '')}`);
