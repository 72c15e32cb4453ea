import { MAX_NUMBER_OF_COMPONENTS } from '../config';
import { fieldsOf } from '.';
import type { GroupDef } from './types';

class CatalogueConfigurationError extends Error {
  override readonly name = 'CatalogueConfigurationError';
}

/**
 * The developer-only configuration checks of spec/form.md §8: keys not in the data model, a key on
 * more than one page, a repeated group whose instance prefix is not part of its keys, and more
 * than 10 components. Returns the problems; `assertCatalogue` throws them in local development.
 */
export function catalogueProblems(groups: GroupDef[], dataModel: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const pageOf = new Map<string, string>();
  for (const group of groups) {
    const max = group.repeat?.max ?? 1;
    if (max > MAX_NUMBER_OF_COMPONENTS) problems.push(`group ${group.id}: maxNumberOfComponents ${max} is above ${MAX_NUMBER_OF_COMPONENTS}`);
    for (let n = 1; n <= Math.min(max, MAX_NUMBER_OF_COMPONENTS); n++) {
      for (const field of fieldsOf(group, n)) {
        if (!dataModel.has(field.key)) problems.push(`group ${group.id}: key ${field.key} is not in the answers data model`);
        const page = pageOf.get(field.key);
        if (page && page !== group.page) problems.push(`key ${field.key} is on more than one page (${page}, ${group.page})`);
        pageOf.set(field.key, group.page);
        if (n > 1 && !field.key.includes(`_${n}_`)) problems.push(`group ${group.id}: instance prefix _${n}_ is not part of the key ${field.key}`);
      }
    }
    for (const field of group.fields) {
      if (!field.lookup) continue;
      const { fills, chosenKey } = field.lookup;
      if (fills.name !== field.key) problems.push(`group ${group.id}: lookup ${field.key} must fill its own key with the name, not ${fills.name}`);
      for (const key of [...Object.values(fills), chosenKey]) {
        if (!group.fields.some((f) => f.key === key)) problems.push(`group ${group.id}: lookup ${field.key} fills ${key}, which is not a field of the group`);
      }
    }
    for (const tab of group.tabs?.tabs ?? []) {
      for (const key of tab.keys) {
        if (!group.fields.some((field) => field.key === key)) problems.push(`group ${group.id}: tab ${tab.id} lists ${key}, which is not a field of the group`);
      }
    }
  }
  return problems;
}

export function assertCatalogue(groups: GroupDef[], dataModel: ReadonlySet<string>, isLocalDevelopment: boolean): void {
  const problems = catalogueProblems(groups, dataModel);
  if (isLocalDevelopment && problems.length > 0) throw new CatalogueConfigurationError(problems.join('\n'));
}
