import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { components } from '../../generated/api';

export type StudentAnswers = components['schemas']['StudentAnswers'];

/** What screens hand each other in navigation state (spec/platform.md §2). */
export interface NavState {
  answers?: StudentAnswers;
  successMessage?: string;
  error?: string;
  username?: string;
}

export function useNavState(): NavState {
  const state = useLocation().state as unknown;
  return state && typeof state === 'object' ? (state as NavState) : {};
}

const PENDING_KEY = 'portal.pendingAnswers';

/**
 * Answers typed before an account exists survive the trip sign-up → e-mail → confirm → sign in,
 * a reload, or the confirm page opened in a new tab: a copy is kept in sessionStorage until the
 * first sign-in saves them to the account.
 */
export function keepPendingAnswers(answers: StudentAnswers | undefined): void {
  if (!answers || Object.keys(answers).length === 0) return;
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify({ ...readPendingAnswers(), ...answers }));
  } catch {
    // Storage full or disabled: navigation state still carries the answers in this tab.
  }
}

export function readPendingAnswers(): StudentAnswers {
  try {
    const raw = sessionStorage.getItem(PENDING_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as StudentAnswers) : {};
  } catch {
    return {};
  }
}

export function clearPendingAnswers(): void {
  try {
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    // nothing to clear
  }
}

/** The answers a screen has: navigation state first, then the sessionStorage copy. */
export function carriedAnswers(state: NavState): StudentAnswers {
  return { ...readPendingAnswers(), ...(state.answers ?? {}) };
}

/** The answers an auth screen carries along; kept in sessionStorage once, when the screen opens. */
export function useCarriedAnswers(): StudentAnswers {
  const state = useNavState();
  const [answers] = useState(() => carriedAnswers(state));
  useEffect(() => keepPendingAnswers(answers), [answers]);
  return answers;
}
