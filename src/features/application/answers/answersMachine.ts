import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { components } from '../../../../generated/api';
import { answerKeys, documentKeys } from '../../../../domain/catalogue';
import { answerText, BASE_ALSO_MAX, BASE_HASH_HEX, BASE_TEXT_MAX, formatAnswersBase, type KnownValue } from '../../../../domain/rules/answersBase';
import { isLabelKey } from '../../../../domain/rules/choiceLabels';
import { answersToClear } from '../../../../domain/rules/visibility';
import { newerToShow, readConflict, resolveConflicts, type AnswerConflict, type Choice } from '../answerConflicts';

export type StudentAnswers = components['schemas']['StudentAnswers'];

/**
 * The applicant's answers on one page, as one pure reducer (issue 48): what the account holds as
 * far as the page knows, what the page shows, what the applicant typed, the saves on their way and
 * the answers changed on both sides. `answersSession.ts` does the I/O around it (the calls, the
 * autosave timer, the tabs); the provider draws it. Every transition has its row in
 * answersMachine.test.ts, and the model-based test drives it against the real server.
 */
export interface AnswersState {
  /**
   * loading: the profile is not read yet; visitor: nobody signed in (nothing is saved); editing: an
   * account's answers, saved as they change; submitted: frozen; left: the page no longer shows the
   * account (signed out, the session ended, another account signed in), nothing more is sent.
   */
  phase: 'loading' | 'visitor' | 'editing' | 'submitted' | 'left';
  /** What the account holds, as far as this page knows: the base of every save. */
  known: StudentAnswers;
  /** The answers' revision `known` is of; null once the page may have missed a change (each answer sent is then compared). */
  revision: number | null;
  /**
   * Other values the account may hold for a key: saves this browser's page sent as it closed and
   * had no answer to, before this page read the answers (a reload). Each is the applicant's own;
   * once the page saves the key, they go.
   */
  mayHold: Record<string, ReadonlyArray<StudentAnswers[string]>>;
  /** The answers shown: the account's, with the applicant's changes on top. */
  shown: StudentAnswers;
  /** What the applicant changed on this page (kept over a newer read of the account). */
  edits: StudentAnswers;
  /** A text area's text before it is committed on blur (spec/form.md §4): saved all the same. */
  drafts: Record<string, string>;
  /** The saves on their way, oldest first. */
  sending: ReadonlyArray<{ id: number; body: StudentAnswers }>;
  /** Answers changed here and elsewhere, asked about and not answered yet: they wait for the answer (and so do the buttons); the rest is saved. */
  conflicts: readonly AnswerConflict[];
  /**
   * Conflicts closed without a choice ('not now'), by key: the account's newer answer. The page
   * keeps showing its own, autosave leaves them alone, a button's save asks again.
   */
  held: Record<string, StudentAnswers>;
  /** The page was hidden or left: only its last words go until it shows again. */
  hidden: boolean;
  /** How the last save ended, for the page's "Saved" line. */
  lastSave: 'saved' | 'failed' | null;
}

export type AnswersEvent =
  /** Nobody signed in: what a visitor carried here (Back from sign-up, a reload, a saved link). */
  | { type: 'visiting'; answers: StudentAnswers }
  /**
   * The account's answers read (the profile): `carried` are answers typed before (a visitor's, a
   * session's that ended, drafts kept in this browser) that fill keys the account has not saved
   * since; `mayHold` the values a closing page of this browser may have saved meanwhile.
   */
  | { type: 'loaded'; answers: StudentAnswers; revision: number; submitted: boolean; carried: StudentAnswers; mayHold: AnswersState['mayHold'] }
  /**
   * Another tab of this browser closed with answers unsaved (its call as it went did not land):
   * this page takes them up, where it has not changed them itself, and saves them.
   */
  | { type: 'draftsTakenUp'; answers: StudentAnswers; mayHold: AnswersState['mayHold'] }
  /** The profile read again: shown under what the applicant changed. */
  | { type: 'profileRead'; answers: StudentAnswers }
  | { type: 'typed'; update: StudentAnswers }
  | { type: 'drafted'; key: string; value: string }
  | { type: 'saveSent'; id: number; body: StudentAnswers }
  /** `revision`: given when the page knew the one before; `current`: newer answers it had sent unchanged. */
  | { type: 'saveAcknowledged'; id: number; revision: number | null; current: StudentAnswers }
  /** 409 ANSWERS_CHANGED: nothing was written. */
  | { type: 'saveConflicted'; id: number; conflicts: readonly string[]; current: StudentAnswers }
  /** Not saved for another reason (offline, the server away, the session over): the answers stay unsaved. */
  | { type: 'saveFailed'; id: number }
  | { type: 'conflictAnswered'; choices: Readonly<Record<string, Choice>> }
  | { type: 'conflictClosed' }
  /** Another tab of this browser saved these answers for the same application. */
  | { type: 'otherTabSaved'; answers: StudentAnswers }
  | { type: 'pageHidden' }
  | { type: 'pageShown' }
  | { type: 'submitted' }
  | { type: 'left' };

export const initialAnswersState: AnswersState = {
  phase: 'loading',
  known: {},
  revision: null,
  mayHold: {},
  shown: {},
  edits: {},
  drafts: {},
  sending: [],
  conflicts: [],
  held: {},
  hidden: false,
  lastSave: null,
};

const without = <T,>(record: Record<string, T>, keys: Iterable<string>): Record<string, T> => {
  let out = record;
  for (const key of keys) {
    if (!(key in out)) continue;
    if (out === record) out = { ...record };
    delete out[key];
  }
  return out;
};

const descOf = (key: string) => `${key}_desc`;

/** Clears what `changed` (null: anything) hides (spec/form.md §4), while the page can change answers. */
function settle(state: AnswersState, changed: readonly string[] | null): AnswersState {
  if (state.phase !== 'editing' && state.phase !== 'visitor') return state;
  const clear = answersToClear(state.shown, changed);
  const keys = Object.keys(clear);
  if (keys.length === 0) return state;
  return { ...state, shown: { ...state.shown, ...clear }, edits: { ...state.edits, ...clear }, drafts: without(state.drafts, keys) };
}

/** The applicant's own change: shown, kept over the account's, its draft and any hold gone; then what it hides is cleared. */
function change(state: AnswersState, update: StudentAnswers): AnswersState {
  const keys = Object.keys(update);
  const changed = keys.filter((key) => state.shown[key] !== update[key]);
  // An edit equal to what is shown is still kept: it is what the applicant chose over the account's.
  const next: AnswersState = {
    ...state,
    edits: { ...state.edits, ...update },
    shown: changed.length > 0 ? { ...state.shown, ...update } : state.shown,
    drafts: without(state.drafts, keys),
    held: without(state.held, keys),
  };
  return changed.length > 0 ? settle(next, changed) : next;
}

/**
 * Newer answers of the account: taken where the page still shows what it had (`had`: what it
 * knew, or sent); where the applicant has typed since, the page keeps its own and what it knew,
 * so saving it is a conflict to ask about, never a silent overwrite.
 */
function takeNewer(state: AnswersState, newer: StudentAnswers, had: StudentAnswers): AnswersState {
  const shownNow = current(state);
  const taken = newerToShow(newer, had, shownNow);
  const keys = Object.keys(taken);
  if (keys.length === 0) return state;
  return settle(
    { ...state, known: { ...state.known, ...taken }, shown: { ...state.shown, ...taken }, edits: { ...state.edits, ...taken }, mayHold: without(state.mayHold, keys) },
    keys,
  );
}

const bodyOf = (state: AnswersState, id: number) => state.sending.find((save) => save.id === id)?.body;
const withoutSave = (state: AnswersState, id: number) => state.sending.filter((save) => save.id !== id);

export function answersReducer(state: AnswersState, event: AnswersEvent): AnswersState {
  switch (event.type) {
    case 'visiting':
      return settle({ ...state, phase: 'visitor', shown: { ...event.answers, ...state.edits }, edits: { ...event.answers, ...state.edits } }, null);
    case 'loaded': {
      const edits = { ...event.carried, ...state.edits };
      return settle(
        {
          ...state,
          phase: event.submitted ? 'submitted' : 'editing',
          known: event.answers,
          revision: event.revision,
          mayHold: event.mayHold,
          shown: { ...event.answers, ...edits },
          edits,
        },
        null,
      );
    }
    case 'draftsTakenUp': {
      if (state.phase !== 'editing') return state;
      const mine = (key: string) => key in state.edits && answerText(current(state)[key]) !== answerText(state.known[key]);
      const taken = Object.fromEntries(Object.entries(event.answers).filter(([key]) => !mine(key) && !mine(key.replace(/_desc$/, ''))));
      if (Object.keys(taken).length === 0) return state;
      const mayHold = { ...state.mayHold };
      for (const key of Object.keys(taken)) if (event.mayHold[key]) mayHold[key] = [...(mayHold[key] ?? []), ...event.mayHold[key]];
      return change({ ...state, mayHold }, taken);
    }
    case 'profileRead':
      return settle({ ...state, shown: { ...event.answers, ...state.edits } }, null);
    case 'typed':
      return change(state, event.update);
    case 'drafted':
      return { ...state, drafts: { ...state.drafts, [event.key]: event.value }, held: without(state.held, [event.key]) };
    case 'saveSent':
      return { ...state, sending: [...state.sending, { id: event.id, body: event.body }] };
    case 'saveAcknowledged': {
      const body = bodyOf(state, event.id);
      if (!body) return state;
      const saved: AnswersState = {
        ...state,
        sending: withoutSave(state, event.id),
        known: { ...state.known, ...body },
        // Given only when the page knew every answer as of the revision before (decision 0017).
        revision: event.revision,
        mayHold: without(state.mayHold, Object.keys(body)),
        lastSave: 'saved',
      };
      return takeNewer(saved, event.current, body);
    }
    case 'saveConflicted': {
      const body = bodyOf(state, event.id);
      if (!body) return state;
      const found = readConflict({ conflicts: [...event.conflicts], current: event.current }, body);
      // Added to the questions already open (the other saves go on while they are): one per answer, the newest.
      const asked = new Set(found.conflicts.map((conflict) => conflict.key));
      const conflicts = [...state.conflicts.filter((conflict) => !asked.has(conflict.key)), ...found.conflicts];
      const refused: AnswersState = { ...state, sending: withoutSave(state, event.id), revision: null, conflicts };
      return takeNewer(refused, found.newer, body);
    }
    case 'saveFailed':
      return bodyOf(state, event.id) ? { ...state, sending: withoutSave(state, event.id), lastSave: 'failed' } : state;
    case 'conflictAnswered': {
      // The account's answers become what the page knows; those taken are shown; the next save writes the rest.
      const { known, take } = resolveConflicts(state.conflicts, event.choices);
      const keys = state.conflicts.map((conflict) => conflict.key);
      const answered: AnswersState = { ...state, known: { ...state.known, ...known }, conflicts: [], held: without(state.held, keys), mayHold: without(state.mayHold, keys) };
      return Object.keys(take).length > 0 ? change(answered, take) : answered;
    }
    case 'conflictClosed': {
      // Not now: nothing is written; the page keeps its answers and asks again at the next button.
      const held = { ...state.held };
      for (const conflict of state.conflicts) held[conflict.key] = conflict.theirs;
      return { ...state, conflicts: [], held };
    }
    case 'otherTabSaved':
      return state.phase === 'editing' ? takeNewer(state, event.answers, state.known) : state;
    case 'pageHidden':
      return { ...state, hidden: true };
    case 'pageShown':
      return { ...state, hidden: false };
    case 'submitted':
      return { ...state, phase: 'submitted' };
    case 'left':
      return { ...state, phase: 'left' };
  }
}

/** The answers as typed: shown, with the text areas' drafts. */
export function current(state: AnswersState): StudentAnswers {
  return Object.keys(state.drafts).length === 0 ? state.shown : { ...state.shown, ...state.drafts };
}

/**
 * A document question's ANSWERED mark is written by the server when its file converts (and removed
 * when it is deleted): the page shows it but never sends it, so there is one writer.
 */
const serverWritten = new Set(documentKeys);
/** Whether a page may send an answer: the form's questions (the server refuses anything else), never a document's mark. */
export const isSendable = (key: string) => answerKeys.has(key) && !serverWritten.has(key);
/** The answers a page may send. */
export const sendable = (answers: StudentAnswers): StudentAnswers => {
  const out: StudentAnswers = {};
  for (const key in answers) if (isSendable(key)) out[key] = answers[key]!;
  return out;
};

/** The keys whose value differs between two answer maps; removed keys are sent as ''. */
function changedAnswers(saved: StudentAnswers, now: StudentAnswers): StudentAnswers {
  const out: StudentAnswers = {};
  for (const [key, value] of Object.entries(now)) if (saved[key] !== value) out[key] = value;
  for (const key of Object.keys(saved)) if (!(key in now)) out[key] = '';
  return out;
}

/**
 * What the applicant changed and the account does not hold yet, with what it held for each and
 * the values of each sent and not answered yet (for the drafts kept in the browser: the page that
 * reads them next knows the account may hold those instead).
 */
export function unsaved(state: AnswersState): { answers: StudentAnswers; base: StudentAnswers; sent: Record<string, Array<StudentAnswers[string]>> } {
  const answers = sendable(changedAnswers(state.known, current(state)));
  const base: StudentAnswers = {};
  const sent: Record<string, Array<StudentAnswers[string]>> = {};
  for (const key of Object.keys(answers)) {
    base[key] = state.known[key] ?? '';
    for (const save of state.sending) if (key in save.body) (sent[key] ??= []).push(save.body[key]!);
  }
  return { answers, base, sent };
}

/** How a value travels in the header: its text, or the hash of a long one (synchronous: a closing page's save leaves within its last event). */
function knownValue(value: StudentAnswers[string] | undefined): KnownValue {
  const text = answerText(value);
  return text.length > BASE_TEXT_MAX ? { sha256: bytesToHex(sha256(utf8ToBytes(text))).slice(0, BASE_HASH_HEX) } : { text };
}

/**
 * A save: `changes`, what the applicant changed (autosave); `all`, every answer (the buttons,
 * spec/form.md §4: their save also brings back newer answers the page sent unchanged); `lastWords`,
 * the changes as the page is hidden or closes, sent at once beside any save on its way.
 */
export type SaveKind = 'changes' | 'all' | 'lastWords';

export type SavePlan = { body: StudentAnswers; base: string } | 'nothing' | 'asking';

/**
 * What a save of `kind` sends now, with its X-Answers-Base header: the revision the page knows
 * (none while a save is on its way: it cannot know the one that makes) and, for each answer it
 * changed, what the account held as far as the page knows (or will, once the saves on their way
 * land), and the values a closing page of this browser may have saved instead. 'asking': answers
 * changed on both sides are being asked about; a button's save waits until they are answered (the
 * other saves leave them out).
 */
export function planSave(state: AnswersState, kind: SaveKind): SavePlan {
  if (state.phase !== 'editing') return 'nothing';
  if (state.hidden && kind !== 'lastWords') return 'nothing';
  // The buttons wait for the answer; the rest of what was typed is saved meanwhile.
  if (state.conflicts.length > 0 && kind === 'all') return 'asking';
  const waiting = [...Object.keys(state.held), ...state.conflicts.map((conflict) => conflict.key)].flatMap((key) => [key, descOf(key)]);
  const body = kind === 'all' ? sendable(current(state)) : without(sendable(changedAnswers(state.known, current(state))), waiting);
  if (Object.keys(body).length === 0) return 'nothing';
  const onWay: StudentAnswers = Object.assign({}, ...state.sending.map((save) => save.body));
  const before: StudentAnswers = { ...state.known, ...onWay };
  const entries: Array<[string, KnownValue, ...KnownValue[]]> = [];
  for (const key of Object.keys(body)) {
    if (isLabelKey(key)) continue;
    // The account holds `before` (the saves on their way landed); or, while they have not, what
    // the page knew and what each of them sent; or what a closing page of this browser sent
    // before this one read the answers.
    const others = new Set<string>();
    if (key in onWay) {
      others.add(answerText(state.known[key]));
      for (const save of state.sending) if (key in save.body) others.add(answerText(save.body[key]));
    }
    for (const value of state.mayHold[key] ?? []) others.add(answerText(value));
    others.delete(answerText(before[key]));
    const also = [...others].slice(-BASE_ALSO_MAX);
    if (answerText(before[key]) === answerText(body[key]) && also.length === 0) continue;
    entries.push([key, knownValue(before[key]), ...also.map(knownValue)]);
  }
  return { body, base: formatAnswersBase(entries, state.sending.length > 0 ? null : state.revision) };
}
