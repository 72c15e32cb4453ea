import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * ~49,000 common passwords from zxcvbn-ts (offline, shipped with the package). A new password is
 * refused when it, or it without its punctuation, is on the list: "Qwerty123456!" is still common.
 */
const common = new Set((dictionary as Record<string, string[]>)['passwords-common'] ?? []);

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose one that is harder to guess.';

export function isCommonPassword(password: string): boolean {
  const lower = password.trim().toLowerCase();
  return common.has(lower) || common.has(lower.replace(/[^\p{L}\p{N}]/gu, ''));
}

export const commonPasswordCount = common.size;
