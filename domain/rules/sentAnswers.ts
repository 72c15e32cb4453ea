import { answerKeys, fieldByKey } from '../catalogue';
import { DEFAULT_TEXTAREA_MAX_LENGTH } from '../config';
import type { FieldErrors } from './collect';
import { STORED_ANSWERS_MAX_CHARS } from './storedBound';
import { isOfferedChoice, withCatalogueLabels } from './choiceLabels';

type AnswerValue = string | number | boolean | null | undefined;

/** The most characters a value other than a text area's may have (names from a lookup, labels). */
const OTHER_VALUE_MAX = 255;

export const sentAnswerMessages = {
  unknown: 'This question is not part of the application.',
  serverWritten: 'This answer is set when its file has been converted.',
  tooLong: (max: number) => `This answer can have at most ${max} characters.`,
  notYesNo: 'This answer must be checked or not.',
  notAChoice: 'This answer is not one of the choices.',
  tooLarge: 'Your application has grown past what can be stored. Please shorten some answers.',
} as const;

/** The most characters a key's value may have: a text area's limit, or a bound for everything else. */
function maxLengthOf(key: string): number {
  const field = fieldByKey.get(key);
  if (field?.type === 'textarea') return field.maxLength ?? DEFAULT_TEXTAREA_MAX_LENGTH;
  return Math.max(field?.maxLength ?? 0, OTHER_VALUE_MAX);
}

/** The most keys a refusal names: a body of made-up keys is not echoed back key by key (issue 29). */
const SENT_ERRORS_MAX = 20;

/**
 * Checks answers sent to be stored (PUT /api/answer, sign-up): only the form's keys, a document's
 * mark never (the server writes it when the file converts), each value within its field's bounds.
 * Returns the messages per key (of the first `limit` keys refused), empty when everything may be stored.
 */
export function checkSentAnswers(sent: Record<string, AnswerValue>, limit: number = SENT_ERRORS_MAX): FieldErrors {
  const errors: FieldErrors = {};
  let count = 0;
  for (const [key, value] of Object.entries(sent)) {
    if (count >= limit) break;
    const field = fieldByKey.get(key);
    if (!answerKeys.has(key)) errors[key] = [sentAnswerMessages.unknown];
    else if (field?.type === 'document') errors[key] = [sentAnswerMessages.serverWritten];
    else if (field?.type === 'checkbox' && !(typeof value === 'boolean' || value === '' || value === null)) errors[key] = [sentAnswerMessages.notYesNo];
    else if (typeof value === 'string' && value.length > maxLengthOf(key)) errors[key] = [sentAnswerMessages.tooLong(maxLengthOf(key))];
    else if (!isOfferedChoice(key, value)) errors[key] = [sentAnswerMessages.notAChoice];
    if (key in errors) count++;
  }
  return errors;
}

/**
 * The sent answers that may be stored where nothing is refused outright (sign-up, a visitor's
 * saved answers): what checkSentAnswers would refuse, and empty values, are dropped; labels are the
 * catalogue's.
 */
export function storableAnswers(sent: Record<string, AnswerValue>): Record<string, string | number | boolean> {
  // Every refused key, not the first 20: what is dropped must be known whole.
  const refused = checkSentAnswers(sent, Infinity);
  const accepted = Object.fromEntries(Object.entries(sent).filter(([key]) => !(key in refused)));
  return Object.fromEntries(
    Object.entries(withCatalogueLabels(accepted)).filter((entry): entry is [string, string | number | boolean] => !(entry[0] in refused) && entry[1] !== '' && entry[1] !== null && entry[1] !== undefined),
  );
}

/** Whether answers, as JSON text, are within the application's bound. */
export const withinStoredBound = (answersJson: string): boolean => answersJson.length <= STORED_ANSWERS_MAX_CHARS;
