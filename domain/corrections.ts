/**
 * The office's correction of a submitted answer (issue 32): which questions it may touch, and
 * what a correction needs. The answer itself is checked as a save is (rules/sentAnswers.ts).
 */
import { answerKeys, documentKeys } from './catalogue';
import type { FieldErrors } from './rules/collect';
import { isLabelKey } from './rules/choiceLabels';
import { checkSentAnswers } from './rules/sentAnswers';

export const CORRECTION_REASON_MAX = 500;

export const correctionMessages = {
  reasonRequired: 'Say why the answer is corrected: the applicant’s request, a document that shows it.',
  reasonTooLong: `The reason must be ${CORRECTION_REASON_MAX} characters or fewer.`,
  notCorrectable: 'This question cannot be corrected here: a document is replaced through the checklist, and a choice’s label follows its choice.',
  notSubmitted: 'Only a submitted application is corrected by the office; until then the applicant changes their own answers.',
  unchanged: 'The answer is already this.',
  waiverBound: 'Recommenders were asked under this waiver and told the applicant will not read their letters: it cannot be taken back.',
} as const;

const documents = new Set(documentKeys);

/** What is wrong with a correction, by field (`key`, `value`, `reason`); empty when it can be made. */
export function correctionErrors(key: string, value: string | number | boolean | null, reason: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!answerKeys.has(key) || documents.has(key) || isLabelKey(key)) errors.key = [correctionMessages.notCorrectable];
  else {
    const refused = checkSentAnswers({ [key]: value })[key];
    if (refused) errors.value = refused;
  }
  if (!reason.trim()) errors.reason = [correctionMessages.reasonRequired];
  else if (reason.trim().length > CORRECTION_REASON_MAX) errors.reason = [correctionMessages.reasonTooLong];
  return errors;
}

export const withdrawalMessages = {
  reasonRequired: 'Say why: the applicant’s request, and when it came.',
  already: 'This application is withdrawn already. Reinstate it first to record another reason.',
} as const;
