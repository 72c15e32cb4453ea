import { answersToFill, type Carry, type Drafts, type StudentAnswers } from '../../../lib/navState';
import { isSendable, sendable } from './answersMachine';

/**
 * The answers typed before this page that fill an account's saved answers (issue 28): carried to
 * the sign-in (a visitor's, or this account's when its session ended) and drafts kept in this
 * browser, each only where the account still holds what it held when they were typed. `kept`:
 * keys where the saved answer stayed (the applicant is told). `mayHold`: for each draft filled in,
 * what the page that kept it may have saved as it closed (a reload), landed or not when this page
 * read the answers: the account may hold any of them (issue 48).
 */
export function carriedInto(saved: StudentAnswers, owner: string, carry: Carry | null, drafts: Drafts | null) {
  const ownCarry = carry && (carry.owner === null || carry.owner === owner.toLowerCase()) ? carry : null;
  let answers: StudentAnswers = {};
  const mayHold: Record<string, Array<StudentAnswers[string]>> = {};
  const kept = new Set<string>();
  for (const source of [ownCarry, drafts]) {
    if (!source) continue;
    const { fill, kept: stayed } = answersToFill(saved, source);
    const filled = sendable(fill);
    answers = { ...answers, ...filled };
    if (source === drafts) for (const key of Object.keys(filled)) mayHold[key] = [drafts.answers[key]!, ...(drafts.sent?.[key] ?? [])];
    for (const key of stayed) if (isSendable(key)) kept.add(key);
  }
  for (const key of Object.keys(answers)) kept.delete(key);
  return { answers, mayHold, kept: [...kept] };
}
