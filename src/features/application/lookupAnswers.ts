import type { LookupDetail } from './api/lookup';
import { fieldByKey } from '../../../domain/catalogue';
import { labelOf } from '../../../domain/catalogue/options';
import type { LookupDef, LookupDetailField } from '../../../domain/catalogue/types';
import { optionsFor } from '../../../domain/rules/visibility';
import type { RuleContext } from '../../../domain/rules/conditions';

/**
 * The answers a chosen record fills in (spec/form.md §7): each field of the record goes to the
 * answer the lookup maps it to, choice fields with their `_desc` label. Fields the record lacks are
 * left as the applicant typed them; a value a dropdown does not offer is not stored. Dependent
 * dropdowns (the state follows the country) are filled after the answers they depend on.
 */
export function lookupAnswers(lookup: LookupDef, detail: LookupDetail, label: string, answers: RuleContext): Record<string, string> {
  const update: Record<string, string> = {};
  const entries = Object.entries(lookup.fills) as [LookupDetailField, string][];
  const dependent = (key: string) => fieldByKey.get(key)?.dependsOn !== undefined;
  for (const [from, key] of [...entries.filter(([, key]) => !dependent(key)), ...entries.filter(([, key]) => dependent(key))]) {
    const value = from === 'name' ? detail.name || label : detail[from];
    if (!value) continue;
    const target = fieldByKey.get(key);
    if (target && (target.type === 'select' || target.type === 'radio')) {
      const description = labelOf(optionsFor(target, { ...answers, ...update }) ?? [], value);
      if (!description) continue;
      update[`${key}_desc`] = description;
    }
    update[key] = value;
  }
  return update;
}
