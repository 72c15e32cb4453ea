import type { components } from '../../generated/api';
import type { Rule } from '../rules/conditions';
import type { Option } from './options';

export type PageId = 'about' | 'education' | 'final-steps';

/** A step of the form: its route and its title (spec/form.md §2). */
export interface PageDef {
  id: PageId;
  path: `/${PageId}`;
  title: string;
}

/** `ssn` is the 3-2-4 entry of spec/form.md §4 (ddd-dd-dddd); no key of the current form uses it. */
export type InputType = 'text' | 'textarea' | 'date' | 'select' | 'radio' | 'checkbox' | 'phone' | 'ssn' | 'email' | 'document' | 'lookup';

/** One answer key of spec/form.md §3, defined once. */
export interface FieldDef {
  key: string;
  label: string;
  /** What the office reads where the applicant's label is an instruction ("Upload a document"), issue 51 §4. */
  readerLabel?: string;
  type: InputType;
  hint?: string;
  /** Choice fields: their options; the chosen label goes to `<key>_desc`. */
  options?: Option[];
  /** Text inputs default to 45, text areas to 1500 (spec/form.md §9). */
  maxLength?: number;
  /**
   * Required while shown (a further instance of a repeated group only once it is in use); the
   * message is the label unless `requiredMessage` says otherwise.
   */
  required?: boolean;
  requiredMessage?: string;
  /** Also required while shown when every rule of an entry holds, with the entry's message (default: the required message). */
  requiredWhen?: Array<{ when: Rule[]; message?: string }>;
  /** A given answer must match the pattern (phone and e-mail builders set theirs). */
  /** The pattern a given answer matches, its message, and a message of its own for a number from abroad where it cannot stand (issue 48). */
  format?: { pattern: { test(value: string): boolean }; message: string; abroad?: { test(value: string): boolean; message: string } };
  /** A given answer needs this many characters while every rule of `when` holds. */
  minLength?: { length: number; message: string; when: Rule[] };
  /** A date's year must lie between the current year plus `from` and plus `to`; an impossible date is too early. */
  yearWindow?: YearWindow;
  /** Further errors: the message shows while every rule of the entry holds. */
  invalidWhen?: Array<{ when: Rule[]; message: string }>;
  /** This field opens a block of its group under this heading (the mailing address, a second parent). */
  startsSection?: string;
  /** Shown only while every rule holds; hidden fields are cleared with their `_desc`. */
  showWhen?: Rule[];
  /**
   * A conditional dropdown (spec/form.md §4): shown only when the answer under `key` matches one of
   * `optionsByValue`'s values. `displayOnly` keeps the field's own options; `displayAndOptions`
   * uses the list for the matched value, which must be non-empty.
   */
  dependsOn?: { key: string; category: 'displayOnly' | 'displayAndOptions'; optionsByValue: Record<string, Option[]> };
  autoComplete?: string;
  /**
   * In a repeated group, what is different from the second instance on: a school the applicant
   * left before graduating has no graduation month to give (issue 28).
   */
  laterInstances?: Partial<Pick<FieldDef, 'required' | 'label' | 'hint'>>;
  /** A `lookup` field: what it searches and which answers a chosen record fills in. */
  lookup?: LookupDef;
}

export interface YearWindow {
  from: number;
  to: number;
  tooEarly: (earliestYear: number) => string;
  tooLate: (latestYear: number) => string;
}

export type LookupCategory = components['schemas']['LookupCategory'];
/** The fields of a lookup record (spec/form.md §3 "Lookup detail") the form can take over. */
export type LookupDetailField = 'name' | 'ceeb' | 'address_line_1' | 'city' | 'state' | 'zip' | 'country';

export interface LookupDef {
  category: LookupCategory;
  /**
   * Record field → answer key of the same group (base keys; repeated groups rename them per
   * instance). `name` is the lookup field itself. Choice fields also get their `_desc`.
   */
  fills: Partial<Record<LookupDetailField, string>> & { name: string };
  /** The answer that says a record was chosen: empty with a name means the applicant typed the school. */
  chosenKey: string;
  /** Where the list comes from, shown under the field (the high-school list's licence asks for it). */
  credit?: { text: string; href: string };
}

/** A confirmation gate (spec/form.md §4): a button that opens the questions, or a checkbox. */
type GateDef = { kind: 'button'; prompt: string; buttonLabel: string } | { kind: 'checkbox'; label: string };

/** A group of fields on a page; repeated groups (siblings, legacy, high schools) have `repeat`. */
export interface GroupDef {
  id: string;
  page: PageId;
  title: string;
  description?: string;
  fields: FieldDef[];
  showWhen?: Rule[];
  repeat?: RepeatDef;
  /** A confirmation gate in front of the group's questions (spec/form.md §4). */
  gate?: GateDef;
  /** Alternative ways to answer, one tab each (spec/form.md §4 "Tabs"). */
  tabs?: TabGroupDef;
}

/** A tab group: the chosen tab persists per `id`; switching clears the answers of the tab left. */
export interface TabGroupDef {
  id: string;
  /** What the tab list is about, for screen readers. */
  label: string;
  tabs: Array<{ id: string; label: string; keys: string[] }>;
}

interface RepeatDef {
  /** The add-another button id stored through /api/add-another. */
  buttonId: string;
  buttonLabel: string;
  max: number;
  /** The answer key of field `key` in instance `n` (1-based): the first instance keeps the base key. */
  keyFor: (key: string, n: number) => string;
  /** How every message of instance n starts, e.g. 'Sibling 2: '. */
  messagePrefix: (n: number) => string;
}

export const yesNo: Option[] = [
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
];
