import { answerKeys, fieldByKey } from '../catalogue';
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

/** What a key of the form is, looked up once: a save's 200 keys each cost one lookup (issue 33). */
interface KeyFacts {
  /** A choice's options (value → label), or null for any other key. */
  choices: Map<string, string> | null;
  /** Whether the key is a choice's `<key>_desc` companion. */
  isLabel: boolean;
  /** `<key>_desc`, made once. */
  labelKey: string;
}

const factsOfKnownKey = new Map<string, KeyFacts>();

function factsOf(key: string): KeyFacts {
  let facts = factsOfKnownKey.get(key);
  if (facts === undefined) {
    facts = { choices: choicesOf(key), isLabel: key.endsWith(DESC_SUFFIX) && choicesOf(key.slice(0, -DESC_SUFFIX.length)) !== null, labelKey: `${key}${DESC_SUFFIX}` };
    // The form's keys only: a made-up key is looked at and forgotten, never kept.
    if (answerKeys.has(key)) factsOfKnownKey.set(key, facts);
  }
  return facts;
}

const cachedChoicesOf = (key: string) => factsOf(key).choices;

/** Whether `key` is a choice's `<key>_desc` companion, written only from the catalogue. */
export const isLabelKey = (key: string): boolean => factsOf(key).isLabel;

/** Whether a sent value of a choice field is one of its options (or empty); true for any other field. */
export function isOfferedChoice(key: string, value: AnswerValue): boolean {
  const choices = cachedChoicesOf(key);
  if (!choices || value === '' || value === null || value === undefined) return true;
  return choices.has(String(value));
}

/**
 * The answers to store with every `_desc` written from the catalogue (issue 28): a choice's label
 * is its option's, whatever the browser sent; a sent `_desc` whose choice was not sent is dropped;
 * a cleared choice clears its label. Choices that are not offered were refused before. One pass,
 * one lookup a key: on every save.
 */
export function withCatalogueLabels<T extends Record<string, AnswerValue>>(sent: T): Record<string, AnswerValue> {
  const out: Record<string, AnswerValue> = {};
  for (const key in sent) {
    const facts = factsOf(key);
    if (facts.isLabel) continue;
    const value = sent[key];
    out[key] = value;
    if (facts.choices) out[facts.labelKey] = value === '' || value === null || value === undefined ? '' : (facts.choices.get(String(value)) ?? '');
  }
  return out;
}

/**
 * Whether the answers already hold what `withCatalogueLabels` would make of them: every choice
 * sent with its catalogue label, no label without its choice. A page sends them so; the server
 * then stores the text it was sent instead of writing a new one (issue 33).
 */
export function labelledAsCatalogue(sent: Readonly<Record<string, AnswerValue>>): boolean {
  let labels = 0;
  let choices = 0;
  for (const key in sent) {
    const facts = factsOf(key);
    if (facts.isLabel) {
      labels++;
      continue;
    }
    if (!facts.choices) continue;
    choices++;
    const value = sent[key];
    const label = value === '' || value === null || value === undefined ? '' : (facts.choices.get(String(value)) ?? '');
    if (sent[facts.labelKey] !== label) return false;
  }
  // Each choice's label is there (checked above): any further label has no choice sent with it.
  return labels === choices;
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
