import { answerKeys, fieldByKey } from '../catalogue';
import { DEFAULT_TEXTAREA_MAX_LENGTH } from '../config';
import type { FieldErrors } from './collect';
import { STORED_ANSWERS_MAX_CHARS } from './storedBound';
import { isOfferedChoice, withCatalogueLabels } from './choiceLabels';
import { optionsFor } from './visibility';

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

/** Each of the form's keys, what a sent value of it is checked against: made once, one lookup a key on every save (issue 33). */
const sentKeyRules = new Map(
  [...answerKeys].map((key) => {
    const type = fieldByKey.get(key)?.type;
    return [key, { document: type === 'document', checkbox: type === 'checkbox', maxLength: maxLengthOf(key) }] as const;
  }),
);

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
  for (const key in sent) {
    if (count >= limit) break;
    const value = sent[key];
    const rules = sentKeyRules.get(key);
    let refused: string | null = null;
    if (!rules) refused = sentAnswerMessages.unknown;
    else if (rules.document) refused = sentAnswerMessages.serverWritten;
    else if (rules.checkbox && !(typeof value === 'boolean' || value === '' || value === null)) refused = sentAnswerMessages.notYesNo;
    else if (typeof value === 'string' && value.length > rules.maxLength) refused = sentAnswerMessages.tooLong(rules.maxLength);
    else if (!isOfferedChoice(key, value)) refused = sentAnswerMessages.notAChoice;
    else if (!offeredWithItsControl(key, sent)) refused = sentAnswerMessages.notAChoice;
    if (refused !== null) {
      errors[key] = [refused];
      count++;
    }
  }
  return errors;
}

/**
 * A dropdown whose list follows another answer (the state follows the country) sent with that
 * answer: its value is one the list offers for it (issue 48: a state of Canada was stored for the
 * United States). Sent alone, it is checked against the stored answer at submit (validateApplication).
 */
function offeredWithItsControl(key: string, sent: Record<string, AnswerValue>): boolean {
  const field = fieldByKey.get(key);
  const value = sent[key];
  if (!field?.dependsOn || !(field.dependsOn.key in sent) || value === '' || value === null || value === undefined) return true;
  return optionsFor(field, sent as Record<string, string>)?.some((option) => option.value === String(value)) ?? false;
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
