/** What is on screen: a field's own and its group's conditions, and conditional dropdowns (spec/form.md §4). */
import { fieldsOf, type ExpandedField } from '../catalogue';
import type { Option } from '../catalogue/options';
import type { FieldDef } from '../catalogue/types';
import { allHold, isAnswered, type RuleContext } from './conditions';

/**
 * The options a field offers with these answers, or null when a conditional dropdown is hidden
 * (its controlling answer matches none of its values, or matches an empty list).
 */
export function optionsFor(field: Pick<FieldDef, 'options' | 'dependsOn'>, answers: RuleContext): Option[] | null {
  const rule = field.dependsOn;
  if (!rule) return field.options ?? [];
  const control = answers[rule.key];
  const list = typeof control === 'string' ? rule.optionsByValue[control] : undefined;
  if (!list) return null;
  if (rule.category === 'displayOnly') return field.options ?? [];
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
