import type { FieldDef } from '../catalogue/types';
import type { Option } from '../catalogue/options';
import type { RuleContext } from './conditions';

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
