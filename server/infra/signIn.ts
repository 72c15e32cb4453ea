/** What every sign-in shares, the applicants' and the staff's: its limits, and the time an unknown account takes. */
import { hash } from '@node-rs/argon2';
import { randomToken } from './crypto';
import type { Limit } from './rateLimit';

/**
 * Sign-in counts guesses per client *at* an address (pair): a stranger locks out only themselves.
 * Per address alone the bound is ten times wider, so only a spread-out attack can slow the owner.
 * Staff sign-in counts under the same limits (server/staff/accounts.ts).
 */
export const LOGIN_LIMITS = { address: { max: 100, windowSeconds: 900 }, client: { max: 100, windowSeconds: 900 }, pair: { max: 10, windowSeconds: 900 } } satisfies Record<string, Limit>;

/** A hash to verify against when the account does not exist, so both cases take the same time. */
let dummyHash: Promise<string> | null = null;
export const getDummyHash = () => (dummyHash ??= hash('not-a-real-password-' + randomToken()));
