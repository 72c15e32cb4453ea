import { fieldByKey } from '../catalogue';
import type { Option } from '../catalogue/options';

type AnswerValue = string | number | boolean | null | undefined;

const DESC_SUFFIX = '_desc';

/** Every option a choice field can show: its own list and each conditional list (the states of a country). */
function choicesOf(key: string): Map<string, string> | null {
  const field = fieldByKey.get(key);
  if (!field || (field.type !== 'select' && field.type !== 'radio')) return null;
  const lists: Option[][] = [field.options ?? [], ...Object.values(field.dependsOn?.optionsByValue ?? {})];
  const choices = new Map<string, string>();
  for (const list of lists) for (const option of list) if (option.value !== '' && !choices.has(option.value)) choices.set(option.value, option.label);
  return choices;
}

const choicesByKey = new Map<string, Map<string, string> | null>();
const cachedChoicesOf = (key: string) => {
  if (!choicesByKey.has(key)) choicesByKey.set(key, choicesOf(key));
  return choicesByKey.get(key)!;
};

/** Whether `key` is a choice's `<key>_desc` companion, written only from the catalogue. */
export const isLabelKey = (key: string): boolean => key.endsWith(DESC_SUFFIX) && cachedChoicesOf(key.slice(0, -DESC_SUFFIX.length)) !== null;

/** Whether a sent value of a choice field is one of its options (or empty); true for any other field. */
export function isOfferedChoice(key: string, value: AnswerValue): boolean {
  const choices = cachedChoicesOf(key);
  if (!choices || value === '' || value === null || value === undefined) return true;
  return choices.has(String(value));
}

/**
 * The answers to store with every `_desc` written from the catalogue (issue 28): a choice's label
 * is its option's, whatever the browser sent; a sent `_desc` whose choice was not sent is dropped;
 * a cleared choice clears its label. Choices that are not offered were refused before.
 */
export function withCatalogueLabels<T extends Record<string, AnswerValue>>(sent: T): Record<string, AnswerValue> {
  const out: Record<string, AnswerValue> = {};
  for (const [key, value] of Object.entries(sent)) if (!isLabelKey(key)) out[key] = value;
  for (const [key, value] of Object.entries(sent)) {
    const choices = cachedChoicesOf(key);
    if (!choices) continue;
    out[`${key}${DESC_SUFFIX}`] = value === '' || value === null || value === undefined ? '' : (choices.get(String(value)) ?? '');
  }
  return out;
}

/**
 * The label to show for a choice's stored value: the catalogue's, or what was stored with it when
 * the catalogue offers the value no more (answers stored before labels were the server's, or an
 * option since retired). Null for a key that is not a choice.
 */
export function shownLabel(key: string, answers: Readonly<Record<string, AnswerValue>>): string | null {
  const choices = cachedChoicesOf(key);
  if (!choices) return null;
  const value = answers[key];
  if (value === '' || value === null || value === undefined) return '';
  const stored = answers[`${key}${DESC_SUFFIX}`];
  return choices.get(String(value)) ?? (typeof stored === 'string' ? stored : '');
}
