import type { Rule } from '../rules/conditions';
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
  /** What every message of this field starts with (e.g. 'Sibling 2: '). */
  messagePrefix: string;
  /** The heading of the block of its group it is in, if the group has blocks. */
  section?: string;
}

const expanded = new WeakMap<GroupDef, Map<number, readonly ExpandedField[]>>();

/**
 * The fields of one group instance, with their instance keys (and rules pointing at instance keys).
 * Built once per group and instance: the same objects every call, so a form re-renders only the
 * fields whose own props changed (and rules that ask for a group's fields cost a lookup).
 */
export function fieldsOf(group: GroupDef, instance = 1): readonly ExpandedField[] {
  let byInstance = expanded.get(group);
  if (!byInstance) expanded.set(group, (byInstance = new Map()));
  let fields = byInstance.get(instance);
  if (!fields) byInstance.set(instance, (fields = expandFields(group, instance)));
  return fields;
}

function expandFields(group: GroupDef, instance: number): ExpandedField[] {
  const repeat = group.repeat;
  const rename = (key: string) => (repeat && group.fields.some((f) => f.key === key) ? repeat.keyFor(key, instance) : key);
  const renameRules = (rules: Rule[]) => rules.map((rule) => ({ ...rule, valueKey: rename(rule.valueKey) }));
  let section: string | undefined;
  return group.fields.map((field) => ({
    ...field,
    ...(instance > 1 ? field.laterInstances : undefined),
    key: rename(field.key),
    showWhen: field.showWhen && renameRules(field.showWhen),
    requiredWhen: field.requiredWhen?.map((entry) => ({ ...entry, when: renameRules(entry.when) })),
    invalidWhen: field.invalidWhen?.map((entry) => ({ ...entry, when: renameRules(entry.when) })),
    minLength: field.minLength && { ...field.minLength, when: renameRules(field.minLength.when) },
    dependsOn: field.dependsOn && { ...field.dependsOn, key: rename(field.dependsOn.key) },
    lookup: field.lookup && {
      ...field.lookup,
      fills: Object.fromEntries(Object.entries(field.lookup.fills).map(([from, key]) => [from, rename(key)])) as typeof field.lookup.fills,
      chosenKey: rename(field.lookup.chosenKey),
    },
    group,
    instance,
    messagePrefix: repeat ? repeat.messagePrefix(instance) : '',
    section: (section = field.startsSection ?? section),
  }));
}

/** Every answer key a catalogue can hold: all instances of repeated groups, in page order. */
export const expandCatalogue = (groups: GroupDef[]): ExpandedField[] =>
  groups.flatMap((group) => Array.from({ length: group.repeat?.max ?? 1 }, (_, i) => fieldsOf(group, i + 1)).flat());

export const allFields: ExpandedField[] = expandCatalogue(catalogue);

export const fieldByKey = new Map(allFields.map((field) => [field.key, field]));

/** A field as the office names it: its reader's label, else the applicant's (the key for one the catalogue no longer has). */
export const readerLabelOf = (key: string) => fieldByKey.get(key)?.readerLabel ?? fieldByKey.get(key)?.label ?? key;

/** The error summary's key → page map. */
export const pageOfKey = (key: string): PageId | undefined => fieldByKey.get(key)?.group.page;

/** Answer keys with their `_desc` companions: the answers list the server accepts. */
export const answerKeys: Set<string> = new Set(
  allFields.flatMap((f) => (f.type === 'select' || f.type === 'radio' ? [f.key, `${f.key}_desc`] : [f.key])),
);

export const groupsOfPage = (page: PageId) => catalogue.filter((group) => group.page === page);

/** The add-another buttons and the most instances each may show (5 legacy, 5 siblings, 3 high schools). */
export const repeatMaxByButton: ReadonlyMap<string, number> = new Map(
  catalogue.flatMap((group) => (group.repeat ? [[group.repeat.buttonId, group.repeat.max] as const] : [])),
);

/** The tab groups and the tabs each offers (additional_info_tabs: upload, write). */
export const tabsByGroup: ReadonlyMap<string, readonly string[]> = new Map(
  catalogue.flatMap((group) => (group.tabs ? [[group.tabs.id, group.tabs.tabs.map((tab) => tab.id)] as const] : [])),
);

/** The document questions (student_upload_card, additional_info_doc, …) in form order. */
export const documentKeys: readonly string[] = allFields.filter((field) => field.type === 'document').map((field) => field.key);
