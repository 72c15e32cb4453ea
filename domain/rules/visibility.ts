/** What is on screen: a field's own and its group's conditions, and conditional dropdowns (spec/form.md §4). */
import { allFields, fieldsOf, type ExpandedField } from '../catalogue';
import type { Option } from '../catalogue/options';
import type { FieldDef, GroupDef } from '../catalogue/types';
import { allHold, isAnswered, type RuleContext } from './conditions';

/** The options of a field that has none: one list, so a memoised field sees the same props on each key. */
const NO_OPTIONS: Option[] = [];

/**
 * The options a field offers with these answers, or null when a conditional dropdown is hidden
 * (its controlling answer matches none of its values, or matches an empty list). The same list
 * for the same answer: never built anew.
 */
export function optionsFor(field: Pick<FieldDef, 'options' | 'dependsOn'>, answers: RuleContext): Option[] | null {
  const rule = field.dependsOn;
  if (!rule) return field.options ?? NO_OPTIONS;
  const control = answers[rule.key];
  const list = typeof control === 'string' ? rule.optionsByValue[control] : undefined;
  if (!list) return null;
  if (rule.category === 'displayOnly') return field.options ?? NO_OPTIONS;
  return list.length > 0 ? list : null;
}

/** Whether a field is on screen: its group's and its own conditions hold. */
export function isShown(field: ExpandedField, answers: RuleContext): boolean {
  return allHold(field.group.showWhen ?? [], answers) && allHold(field.showWhen ?? [], answers) && optionsFor(field, answers) !== null;
}

/**
 * Instance 1 of a repeated group is always asked; a further instance (High School 2, …) only once
 * the applicant has put something in it.
 */
export function instanceInUse(field: ExpandedField, answers: RuleContext): boolean {
  return field.instance === 1 || fieldsOf(field.group, field.instance).some((f) => isAnswered(answers[f.key]));
}

/** The answers that decide whether a field shows and what it offers: its group's and its own conditions, its dropdown's control. */
function controlsOf(field: ExpandedField): string[] {
  return [...(field.group.showWhen ?? []), ...(field.showWhen ?? [])].map((rule) => rule.valueKey).concat(field.dependsOn ? [field.dependsOn.key] : []);
}

const readsOfGroup = new WeakMap<GroupDef, ReadonlySet<string> | null>();

/**
 * The answers a group's questions are drawn from, in every instance it can show: their own, those
 * their conditions and conditional dropdowns read, and a tab's descriptions. Null when the group
 * reads them all (a lookup fills other questions from what it finds). A page re-renders a group
 * only when one of these changed, so a key typed in one group leaves the others as they were.
 */
export function answersReadBy(group: GroupDef): ReadonlySet<string> | null {
  if (readsOfGroup.has(group)) return readsOfGroup.get(group)!;
  const keys = new Set<string>();
  let reads: Set<string> | null = keys;
  for (let instance = 1; reads && instance <= (group.repeat?.max ?? 1); instance++) {
    for (const field of fieldsOf(group, instance)) {
      if (field.type === 'lookup') {
        reads = null;
        break;
      }
      for (const key of [field.key, ...controlsOf(field)]) keys.add(key);
    }
  }
  for (const key of reads ? (group.tabs?.tabs ?? []).flatMap((tab) => tab.keys) : []) keys.add(key).add(`${key}_desc`);
  readsOfGroup.set(group, reads);
  return reads;
}

/** Whether two sets of answers agree on the given keys (all keys when null). */
export function sameAnswersOn(keys: ReadonlySet<string> | null, before: RuleContext, after: RuleContext): boolean {
  if (before === after) return true;
  if (keys === null) return false;
  for (const key of keys) if (before[key] !== after[key]) return false;
  return true;
}

let fieldsByControl: Map<string, ExpandedField[]> | null = null;

/** Each answer key (a `_desc` companion too), with the fields it shows, hides or gives options to, and its own field. */
function fieldsByControlKey(): ReadonlyMap<string, readonly ExpandedField[]> {
  if (!fieldsByControl) {
    const index = new Map<string, ExpandedField[]>();
    const add = (control: string, field: ExpandedField) => {
      const list = index.get(control) ?? [];
      if (!list.includes(field)) list.push(field);
      index.set(control, list);
    };
    for (const field of allFields) {
      for (const control of [field.key, `${field.key}_desc`, ...controlsOf(field)]) add(control, field);
    }
    fieldsByControl = index;
  }
  return fieldsByControl;
}

/**
 * The answers to clear (spec/form.md §4): a hidden field loses its answer and its `_desc`
 * companion; so does a conditional dropdown whose list no longer offers its value. `changed`: the
 * keys changed since the last check, so that a keystroke checks the fields it can affect, not
 * every field of the application; null checks them all.
 */
export function answersToClear(answers: RuleContext, changed: Iterable<string> | null): Record<string, string> {
  // The index is built by the first check (the page's load, of every field), not by a keystroke's.
  const index = fieldsByControlKey();
  const fields = changed === null ? allFields : new Set([...changed].flatMap((key) => index.get(key) ?? []));
  const clear: Record<string, string> = {};
  for (const field of fields) {
    const value = answers[field.key];
    const stale = field.dependsOn && value && !optionsFor(field, answers)?.some((option) => option.value === value);
    if (isShown(field, answers) && !stale) continue;
    for (const key of [field.key, `${field.key}_desc`]) if (isAnswered(answers[key])) clear[key] = '';
  }
  return clear;
}

/** The keys whose answers differ between two sets of answers. */
export function changedKeys(before: RuleContext, after: RuleContext): string[] {
  // Plain loops: run on every key typed, over every answer of the application.
  const changed: string[] = [];
  for (const key in after) if (before[key] !== after[key]) changed.push(key);
  for (const key in before) if (!(key in after) && before[key] !== undefined) changed.push(key);
  return changed;
}
