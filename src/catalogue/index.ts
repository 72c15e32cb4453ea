import { aboutGroups } from './about';
import { educationGroups } from './education';
import { finalStepsGroups } from './finalSteps';
import type { FieldDef, GroupDef, PageId } from './types';

/** The whole application, page by page (spec/form.md §2: about, education, final-steps). */
export const catalogue: GroupDef[] = [...aboutGroups, ...educationGroups, ...finalStepsGroups];

export interface ExpandedField extends FieldDef {
  group: GroupDef;
  /** 1-based instance of a repeated group (1 for groups that do not repeat). */
  instance: number;
  /** What messages of this field start with (e.g. 'Sibling 2: '). */
  messagePrefix: string;
}

/** The fields of one group instance, with their instance keys (and rules pointing at instance keys). */
export function fieldsOf(group: GroupDef, instance = 1): ExpandedField[] {
  const repeat = group.repeat;
  const rename = (key: string) => (repeat && group.fields.some((f) => f.key === key) ? repeat.keyFor(key, instance) : key);
  return group.fields.map((field) => ({
    ...field,
    key: rename(field.key),
    showWhen: field.showWhen?.map((rule) => ({ ...rule, valueKey: rename(rule.valueKey) })),
    dependsOn: field.dependsOn && { ...field.dependsOn, key: rename(field.dependsOn.key) },
    lookup: field.lookup && {
      ...field.lookup,
      fills: Object.fromEntries(Object.entries(field.lookup.fills).map(([from, key]) => [from, rename(key)])) as typeof field.lookup.fills,
      chosenKey: rename(field.lookup.chosenKey),
    },
    group,
    instance,
    messagePrefix: repeat ? repeat.messagePrefix(instance) : '',
  }));
}

/** Every answer key the form can hold: all instances of repeated groups. */
export const allFields: ExpandedField[] = catalogue.flatMap((group) =>
  Array.from({ length: group.repeat?.max ?? 1 }, (_, i) => fieldsOf(group, i + 1)).flat(),
);

export const fieldByKey = new Map(allFields.map((field) => [field.key, field]));

/** The error summary's key → page map. */
export const pageOfKey = (key: string): PageId | undefined => fieldByKey.get(key)?.group.page;

/** Answer keys with their `_desc` companions: the answers list the server accepts. */
export const answerKeys: Set<string> = new Set(
  allFields.flatMap((f) => (f.type === 'select' || f.type === 'radio' ? [f.key, `${f.key}_desc`] : [f.key])),
);

export const groupsOfPage = (page: PageId) => catalogue.filter((group) => group.page === page);
