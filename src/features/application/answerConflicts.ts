import { answerText } from '../../../domain/rules/answersBase';
import type { StudentAnswers } from '../../lib/navState';

/** A save refused because answers this page changed were changed elsewhere first: the dialog asks. */
export class AnswersConflictError extends Error {
  override readonly name = 'AnswersConflictError';
}

/** One answer changed both here and in another tab or on another device. */
export interface AnswerConflict {
  key: string;
  /** What this page has (sent), and the label a choice shows. */
  mine: StudentAnswers[string];
  mineShown: string;
  /** What the account holds now: the answer, with its label for a choice. */
  theirs: StudentAnswers;
  theirsShown: string;
}

export type Choice = 'mine' | 'theirs';

const descOf = (key: string) => `${key}_desc`;

/** How an answer reads in the dialog: a choice's label, a checkbox in words, '(no answer)'. */
export function shownAnswer(key: string, answers: StudentAnswers): string {
  const value = answers[key];
  if (typeof value === 'boolean') return value ? 'Checked' : 'Not checked';
  const text = answerText(value);
  if (text === '') return '(no answer)';
  const label = answerText(answers[descOf(key)]);
  return label || text;
}

/**
 * A save's 409 ANSWERS_CHANGED read against what was sent: the conflicts to ask about, and the
 * newer answers the page had not changed, taken as they are.
 */
export function readConflict(body: Record<string, unknown> | undefined, sent: StudentAnswers): { conflicts: AnswerConflict[]; newer: StudentAnswers } {
  const current = (body?.current ?? {}) as StudentAnswers;
  const keys = Array.isArray(body?.conflicts) ? (body.conflicts as unknown[]).filter((key): key is string => typeof key === 'string') : [];
  const asked = new Set(keys.flatMap((key) => [key, descOf(key)]));
  const newer = Object.fromEntries(Object.entries(current).filter(([key]) => !asked.has(key)));
  const conflicts = keys.map((key) => ({
    key,
    mine: sent[key] ?? '',
    mineShown: shownAnswer(key, sent),
    theirs: Object.fromEntries([key, descOf(key)].filter((k) => k === key || k in current).map((k) => [k, current[k] ?? ''])),
    theirsShown: shownAnswer(key, current),
  }));
  return { conflicts, newer };
}

/**
 * The applicant's choices applied: `known` is what the account holds for each answer (the base of
 * the next save), `take` the answers the page now shows instead of its own.
 */
export function resolveConflicts(conflicts: readonly AnswerConflict[], choices: Readonly<Record<string, Choice>>) {
  let known: StudentAnswers = {};
  let take: StudentAnswers = {};
  for (const conflict of conflicts) {
    known = { ...known, ...conflict.theirs };
    if (choices[conflict.key] === 'theirs') take = { ...take, ...conflict.theirs };
  }
  return { known, take };
}

/** The answers of `newer` the page still shows as it sent them: typing since then is kept. */
export function newerToShow(newer: StudentAnswers, sent: StudentAnswers, showing: StudentAnswers): StudentAnswers {
  return Object.fromEntries(Object.entries(newer).filter(([key]) => answerText(showing[key]) === answerText(sent[key])));
}
