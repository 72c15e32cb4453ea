import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { components } from '../../generated/api';

export type StudentAnswers = components['schemas']['StudentAnswers'];

/**
 * Answers typed but not (yet) saved to an account, on their way to one: a visitor's answers going
 * to sign-up or sign-in, or a signed-in applicant's unsaved answers when the session ended.
 * `owner` is the account they belong to (null: typed by a visitor, for whoever signs in next);
 * `base` is what that account held for each key when they were typed, so they only fill keys the
 * account has not saved since. `gen` ties them to this tab's current carry generation: a logout
 * or a finished carry starts a new one, and every older copy (in browser history) is void.
 */
export interface Carry {
  gen: string;
  owner: string | null;
  answers: StudentAnswers;
  base: StudentAnswers;
}

/** What screens hand each other in navigation state (spec/platform.md §2). */
export interface NavState {
  carry?: Carry;
  successMessage?: string;
  error?: string;
  username?: string;
  /** The page was opened by a step button: it starts at the top, on its heading. */
  stepMove?: boolean;
}

export function useNavState(): NavState {
  const state = useLocation().state as unknown;
  return state && typeof state === 'object' ? (state as NavState) : {};
}

const GEN_KEY = 'portal.carryGen';
const CARRY_KEY = 'portal.carry';
/** Each tab keeps its drafts under its own key: `portal.drafts.<tab>` (an older page's, `portal.drafts` alone). */
const DRAFTS_KEY = 'portal.drafts';
const TAB_KEY = 'portal.tab';
let memoryGen: string | null = null;
let memoryTab: string | null = null;

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function storageGet(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}
function storageSet(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Storage full or disabled: what is in memory still goes on in this tab.
  }
}
const session = () => sessionStorage;
const local = () => localStorage;

/** This tab's carry generation (kept in sessionStorage, so a reload keeps it). */
function currentGen(): string {
  const stored = storageGet(session, GEN_KEY);
  if (stored) return stored;
  memoryGen ??= newId();
  storageSet(session, GEN_KEY, memoryGen);
  return memoryGen;
}

function isAnswers(value: unknown): value is StudentAnswers {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseCarry(value: unknown): Carry | null {
  if (!isAnswers(value)) return null;
  const { gen, owner, answers, base } = value as Record<string, unknown>;
  if (typeof gen !== 'string' || !(owner === null || typeof owner === 'string') || !isAnswers(answers) || !isAnswers(base)) return null;
  return { gen, owner, answers, base };
}

function readStoredCarry(): Carry | null {
  try {
    return parseCarry(JSON.parse(storageGet(session, CARRY_KEY) ?? 'null'));
  } catch {
    return null;
  }
}

/** A carry of these answers in the current generation; a visitor's unless an owner is given. */
export function carryOf(answers: StudentAnswers, owner: string | null = null, base: StudentAnswers = {}): Carry {
  return { gen: currentGen(), owner: owner?.toLowerCase() ?? null, answers, base };
}

/**
 * The carry a screen may use: the one in its navigation state or the tab's stored copy, and only
 * while it belongs to the current generation. A carry in an older history entry reads as none.
 */
export function validCarry(state: NavState): Carry | null {
  const gen = currentGen();
  const fromState = parseCarry(state.carry);
  const stored = readStoredCarry();
  const live = [stored, fromState].filter((carry): carry is Carry => carry !== null && carry.gen === gen);
  if (live.length === 0) return null;
  // Navigation state is the newer copy; the stored one fills what it lacks (same owner only).
  const newest = live[live.length - 1]!;
  const older = live.length > 1 && live[0]!.owner === newest.owner ? live[0]! : null;
  return older ? { ...newest, answers: { ...older.answers, ...newest.answers }, base: { ...older.base, ...newest.base } } : newest;
}

/** Keeps a copy of the carry in the tab: it survives a reload, Back, and the trip through e-mail. */
export function keepCarry(carry: Carry | null): void {
  if (!carry || carry.gen !== currentGen() || Object.keys(carry.answers).length === 0) return;
  storageSet(session, CARRY_KEY, JSON.stringify(carry));
}

/** Ends every carry of this tab: the stored copy goes, and history entries' copies become void. */
export function endCarries(): void {
  storageSet(session, CARRY_KEY, null);
  memoryGen = newId();
  storageSet(session, GEN_KEY, memoryGen);
}

/** The carry an auth screen hands on; kept in the tab once, when the screen opens. */
export function useCarry(): Carry {
  const state = useNavState();
  const [carry] = useState(() => validCarry(state) ?? carryOf({}));
  useEffect(() => keepCarry(carry), [carry]);
  return carry;
}

/** Unsaved answers of a signed-in account, kept in this browser until saved (a reload, a closed tab). */
export interface Drafts {
  owner: string;
  answers: StudentAnswers;
  base: StudentAnswers;
  /** The values of each sent and not answered when they were kept: the account may hold any (issue 48). */
  sent?: Record<string, Array<StudentAnswers[string]>>;
}

/** This tab, as long as it lives (kept in sessionStorage: a reload is the same tab). */
function thisTab(): string {
  const stored = storageGet(session, TAB_KEY);
  if (stored) return stored;
  memoryTab ??= newId();
  storageSet(session, TAB_KEY, memoryTab);
  return memoryTab;
}

/**
 * Keeps this tab's unsaved answers in the browser until they are saved. `closed`: the page is
 * going (a reload, a closed tab); another tab may then take them up. A page still open keeps its
 * own: another tab taking them up would save them over the page's later typing (issue 48).
 */
export function keepDrafts(drafts: Drafts, { closed = false }: { closed?: boolean } = {}): void {
  const owner = drafts.owner.toLowerCase();
  storageSet(local, `${DRAFTS_KEY}.${thisTab()}`, Object.keys(drafts.answers).length === 0 ? null : JSON.stringify({ ...drafts, owner, closed }));
}

/** The storage keys of the drafts kept in this browser. */
function draftKeys(): string[] {
  const keys: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key !== null && (key === DRAFTS_KEY || key.startsWith(`${DRAFTS_KEY}.`))) keys.push(key);
    }
  } catch {
    // no storage: nothing kept
  }
  return keys;
}

/** The drafts kept in this browser, by storage key, with the tab that kept them open or closed. */
function storedDrafts(): Array<{ key: string; drafts: Drafts; closed: boolean }> {
  const out: Array<{ key: string; drafts: Drafts; closed: boolean }> = [];
  for (const key of draftKeys()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(storageGet(local, key) ?? 'null');
    } catch {
      continue;
    }
    if (!isAnswers(parsed)) continue;
    const drafts = parsed as Record<string, unknown>;
    if (typeof drafts.owner !== 'string' || !isAnswers(drafts.answers) || !isAnswers(drafts.base)) continue;
    const sent: NonNullable<Drafts['sent']> = {};
    if (isAnswers(drafts.sent)) for (const [sentKey, values] of Object.entries(drafts.sent as Record<string, unknown>)) if (Array.isArray(values)) sent[sentKey] = values as Array<StudentAnswers[string]>;
    // An older page's drafts say nothing of their tab: taken as closed.
    out.push({ key, drafts: { owner: drafts.owner, answers: drafts.answers, base: drafts.base, sent }, closed: drafts.closed !== false });
  }
  return out;
}

/**
 * The drafts of this account a page may take up: its own tab's (a reload) and those of tabs
 * closed since, merged (its own last); `from` names them, for `dropDrafts` once taken up. Another
 * account's read as none.
 */
export function readDrafts(owner: string): (Drafts & { from: string[] }) | null {
  const own = `${DRAFTS_KEY}.${thisTab()}`;
  const mine = storedDrafts()
    .filter(({ key, drafts, closed }) => drafts.owner === owner.toLowerCase() && (closed || key === own))
    .sort((a, b) => Number(a.key === own) - Number(b.key === own));
  if (mine.length === 0) return null;
  const merged: Drafts & { from: string[] } = { owner: owner.toLowerCase(), answers: {}, base: {}, sent: {}, from: [] };
  for (const { key, drafts } of mine) {
    merged.answers = { ...merged.answers, ...drafts.answers };
    merged.base = { ...merged.base, ...drafts.base };
    merged.sent = { ...merged.sent, ...drafts.sent };
    merged.from.push(key);
  }
  return merged;
}

/** The drafts kept under `key` by a tab that has closed since, of this account (a live tab hears of them by the storage event). */
export function closedDrafts(key: string, owner: string): (Drafts & { from: string[] }) | null {
  const found = storedDrafts().find((stored) => stored.key === key);
  if (!found || !found.closed || found.drafts.owner !== owner.toLowerCase() || key === `${DRAFTS_KEY}.${thisTab()}`) return null;
  return { ...found.drafts, from: [key] };
}

/** Drafts taken up by this page (theirs now: kept under its own key until saved). */
export function dropDrafts(keys: readonly string[]): void {
  const own = `${DRAFTS_KEY}.${thisTab()}`;
  for (const key of keys) if (key !== own) storageSet(local, key, null);
}

/**
 * A session change: on a logout every carry and draft goes; on a sign-in, whatever belongs to
 * another account goes, so nothing typed for one account can reach another.
 */
export function forgetAnswersOfOthers(signedIn: string | null): void {
  const owner = signedIn?.toLowerCase() ?? null;
  const stored = readStoredCarry();
  if (owner === null || (stored?.owner != null && stored.owner !== owner)) endCarries();
  const others = new Set(storedDrafts().filter(({ drafts }) => drafts.owner !== owner).map(({ key }) => key));
  // Signed out: every draft goes, a broken one too.
  for (const key of draftKeys()) if (owner === null || others.has(key)) storageSet(local, key, null);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? '') === JSON.stringify(b ?? '');

/**
 * The answers of a carry or drafts that may fill an account's saved answers: a key only when the
 * account still holds what it held when they were typed (`base`; nothing for a visitor), so an
 * answer saved since is never overwritten. `kept` names keys where the saved answer stayed.
 */
export function answersToFill(saved: StudentAnswers, carried: { answers: StudentAnswers; base: StudentAnswers; sent?: Drafts['sent'] }) {
  const fill: StudentAnswers = {};
  const kept: string[] = [];
  for (const [key, value] of Object.entries(carried.answers)) {
    // What the account held when they were typed, or what this browser sent of them since (a
    // save on its way as the page closed): either way the account holds nothing newer.
    if (same(saved[key], carried.base[key]) || (carried.sent?.[key] ?? []).some((sent) => same(saved[key], sent))) fill[key] = value;
    else if (!same(saved[key], value)) kept.push(key);
  }
  return { fill, kept };
}
