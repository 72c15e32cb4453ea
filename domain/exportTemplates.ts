/**
 * The office's export templates (issue 32): which applications leave, which fields in which order
 * under which column names, each value exactly as stored or translated through a code table the
 * SIS gave (entry term "Fall 2027" → `202710`), and the file's format. Pure rules: the server
 * encodes and delivers, the console edits, and both check a template with `exportTemplateErrors`.
 */
import { answerKeys } from './catalogue';
import type { Decision } from './decisions';

/**
 * - `csv`: RFC 4180 (comma, CRLF, quotes doubled), UTF-8 without a byte-order mark, values as stored.
 * - `tsv`: the same quoting with a tab between values, for loaders that want tab-delimited files.
 * - `tsv_iana`: IANA's text/tab-separated-values as loaders that split on tabs and lines read it:
 *   no quoting; a tab, line feed, carriage return and backslash in a value written `\t`, `\n`,
 *   `\r`, `\\` (as PostgreSQL's COPY and most loaders read them); LF after every record (issue 51).
 * - `jsonl`: one JSON object per line (LF), keys the column names, numbers and booleans typed.
 * - `spreadsheet`: CSV a spreadsheet opens safely: a BOM, and a cell that would run as a formula
 *   starts with an apostrophe. Never for a loader: it changes values (`+44 …` → `'+44 …`).
 */
export const EXPORT_FORMATS = ['csv', 'tsv', 'tsv_iana', 'jsonl', 'spreadsheet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV for a loader (RFC 4180, values exactly as stored)',
  tsv: 'Tab-delimited for a loader, quoted as CSV is (RFC 4180 with tabs; values exactly as stored)',
  tsv_iana: 'Tab-delimited for a loader, IANA (no quotes; tabs, line breaks and backslashes escaped as \\t, \\n, \\r, \\\\)',
  jsonl: 'JSON Lines',
  spreadsheet: 'CSV for a spreadsheet (formulas neutralised with an apostrophe)',
};

export const FILE_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', tsv: 'tsv', tsv_iana: 'tsv', jsonl: 'jsonl', spreadsheet: 'csv' };

const IANA_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

/** A value as IANA tab-separated values hold it: a tab, line break or backslash escaped, nothing quoted. */
export const tsvIanaField = (value: string): string => value.replace(/[\t\n\r\\]/g, (char) => IANA_ESCAPES[char]!);

/**
 * Fields of the record itself, before the catalogue's answer keys. `decision` is a released
 * decision only: one still provisional or scheduled is the office's own until its release.
 */
const RECORD_FIELDS = [
  'application_number',
  'applicant_id',
  'email',
  'status',
  'submitted_at',
  'updated_at',
  'withdrawn_at',
  'merged_into',
  'decision',
  'decision_released_at',
  'decision_reply',
  'checklist_state',
  'checklist_missing',
  'bin',
] as const;

/** A scale's or a recommendation's name as a field names it: "Academic promise" → `academic_promise`. */
export const fieldSlug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/**
 * The committee's fields (issue 51 §1): how many reviews, the composite score, a scale's mean, how
 * many recommend something, and each review's reviewer, recommendation, comment and ratings, for the
 * first ten reviews (`review_1_…` to `review_10_…`), oldest first.
 */
export type ReviewField =
  | { kind: 'count' }
  | { kind: 'composite' }
  | { kind: 'mean'; slug: string }
  | { kind: 'recommended'; slug: string }
  | { kind: 'review'; index: number; part: 'reviewer' | 'recommendation' | 'comment' }
  | { kind: 'rating'; index: number; slug: string };

export function reviewFieldOf(field: string): ReviewField | null {
  if (field === 'review_count') return { kind: 'count' };
  if (field === 'composite_score') return { kind: 'composite' };
  let match = field.match(/^(scale_mean|recommended)_([a-z0-9_]+)$/);
  if (match) return { kind: match[1] === 'scale_mean' ? 'mean' : 'recommended', slug: match[2]! };
  match = field.match(/^review_([1-9]|10)_(reviewer|recommendation|comment)$/);
  if (match) return { kind: 'review', index: Number(match[1]), part: match[2] as 'reviewer' | 'recommendation' | 'comment' };
  match = field.match(/^review_([1-9]|10)_rating_([a-z0-9_]+)$/);
  if (match) return { kind: 'rating', index: Number(match[1]), slug: match[2]! };
  return null;
}

/** The committee's fields for a review form, as the template page offers them: reviews one by one up to `reviews`. */
export function reviewFieldsFor(form: { scales: readonly { name: string }[]; recommendations: readonly string[] }, reviews = 3): { field: string; label: string }[] {
  const perReview = (index: number) => [
    { field: `review_${index}_reviewer`, label: `Review ${index}: its reviewer` },
    { field: `review_${index}_recommendation`, label: `Review ${index}: the recommendation` },
    ...form.scales.map((scale) => ({ field: `review_${index}_rating_${fieldSlug(scale.name)}`, label: `Review ${index}: ${scale.name} (its point, from 1)` })),
    { field: `review_${index}_comment`, label: `Review ${index}: the comment` },
  ];
  return [
    { field: 'review_count', label: 'How many reviews' },
    { field: 'composite_score', label: 'The composite score' },
    ...form.scales.map((scale) => ({ field: `scale_mean_${fieldSlug(scale.name)}`, label: `${scale.name}: the mean rating` })),
    ...form.recommendations.map((name) => ({ field: `recommended_${fieldSlug(name)}`, label: `${name}: how many reviews recommend it` })),
    ...Array.from({ length: reviews }, (_, i) => perReview(i + 1)).flat(),
  ];
}

/** Every field a column can name: the record's, then every answer key of the catalogue in form order. */
export const EXPORT_FIELDS: readonly string[] = [...RECORD_FIELDS, ...answerKeys];
const exportFieldSet = new Set(EXPORT_FIELDS);

/** Which applications a template takes: `in_progress` is any application not yet submitted. */
type ExportStage = 'submitted' | 'in_progress';
type DecisionFilter = Decision | 'none';
export const CHECKLIST_FILTERS = ['any', 'complete', 'incomplete'] as const;

interface ExportColumn {
  field: string;
  header: string;
  /** The code table its values go through; null: exactly as stored. */
  codes: string | null;
}

export interface ExportTemplate {
  name: string;
  format: ExportFormat;
  columns: ExportColumn[];
  filter: {
    stages: ExportStage[];
    /** Entry terms as answered; empty: every term. */
    terms: string[];
    /** Released decisions (`none`: no released decision); empty: any. */
    decisions: DecisionFilter[];
    checklist: (typeof CHECKLIST_FILTERS)[number];
  };
  /** Code table name → stored value → the value the SIS wants. */
  codeTables: Record<string, Record<string, string>>;
  /** When it runs by itself (a run of changes); `hourUtc` is the hour of a daily run. */
  schedule: ExportSchedule;
  /** Each run also writes the applications' documents as a zip with a manifest, for imaging. */
  documents: boolean;
  /** What a value its code table does not list becomes (issue 51); templates kept before it: `keep`. */
  unmappedValues?: UnmappedValues;
}

export const UNMAPPED_VALUES = ['keep', 'blank', 'fail'] as const;
export type UnmappedValues = (typeof UNMAPPED_VALUES)[number];
export const UNMAPPED_VALUE_LABELS: Record<UnmappedValues, string> = {
  keep: 'Leave it as stored (and count it)',
  blank: 'Leave the cell empty (and count it)',
  fail: 'Fail the run, naming the value and the application',
};

/** Why a run failed on a value its code table does not list. */
export const unmappedFailure = (header: string, value: string, applicationNumber: number) =>
  `Column ${header}: “${value}” (application ${applicationNumber}) is not in its code table, and the template fails the run on such a value. Add it to the table, or choose to keep or blank such values.`;

export interface ExportSchedule {
  every: 'never' | 'hour' | 'day';
  hourUtc: number;
}

/**
 * The latest instant a scheduled run was due at or before `now`, or null for none: the top of the
 * hour, or today's `hourUtc` (yesterday's before it comes). A run started for that instant or
 * later has done it; one is due otherwise.
 */
export function dueInstant(schedule: ExportSchedule, now: Date): Date | null {
  if (schedule.every === 'never') return null;
  const due = new Date(now);
  due.setUTCMinutes(0, 0, 0);
  if (schedule.every === 'hour') return due;
  due.setUTCHours(schedule.hourUtc);
  if (due > now) due.setUTCDate(due.getUTCDate() - 1);
  return due;
}

export const EXPORT_LIMITS = {
  nameMax: 80,
  columnsMax: 400,
  headerMax: 100,
  tablesMax: 30,
  tableNameMax: 60,
  entriesMax: 5_000,
  codeMax: 200,
  termsMax: 20,
} as const;

/**
 * A run made but not taken up by a worker after this long was lost (its job never ran): a new run
 * of its template may start. A run a worker took up is known dead at once (its process's lock is
 * gone: server/exports/templates.ts `beginRun`).
 */
export const STUCK_RUN_MINUTES = 10;

export const exportTemplateMessages = {
  nameRequired: 'Enter a name for this template.',
  nameTooLong: `The name must be ${EXPORT_LIMITS.nameMax} characters or fewer.`,
  columnsRequired: 'Choose at least one field.',
  tooManyColumns: `A template holds at most ${EXPORT_LIMITS.columnsMax} columns.`,
  unknownField: (field: string) => `"${field}" is not a field of the application.`,
  headerRequired: 'Each column needs a name.',
  headerTooLong: `A column name must be ${EXPORT_LIMITS.headerMax} characters or fewer.`,
  headerLineBreak: 'A column name cannot hold a line break or a tab.',
  headerTwice: (header: string) => `Two columns are named "${header}": each needs a name of its own.`,
  unknownTable: (table: string) => `There is no code table named "${table}".`,
  stagesRequired: 'Choose submitted applications, ones in progress, or both.',
  tooManyTables: `A template holds at most ${EXPORT_LIMITS.tablesMax} code tables.`,
  tableNameInvalid: `A code table needs a name of 1 to ${EXPORT_LIMITS.tableNameMax} characters.`,
  tooManyEntries: (table: string) => `The code table "${table}" holds more than ${EXPORT_LIMITS.entriesMax} values.`,
  codeTooLong: (table: string) => `In "${table}", a value or code is longer than ${EXPORT_LIMITS.codeMax} characters.`,
  tooManyTerms: `Choose at most ${EXPORT_LIMITS.termsMax} terms.`,
  hourInvalid: 'Choose an hour from 0 to 23 (UTC).',
  nameTaken: 'Another template has this name.',
  runInProgress: 'This template is being exported already. Wait for that run to end.',
} as const;

const LINE_BREAK_OR_TAB = /[\r\n\t]/;

/** What is wrong with a template, by part (`name`, `columns`, `filter`, `codeTables`); empty when it can be saved. */
export function exportTemplateErrors(template: ExportTemplate): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (part: string, message: string) => {
    const list = (errors[part] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const name = template.name.trim();
  if (!name) add('name', exportTemplateMessages.nameRequired);
  if (name.length > EXPORT_LIMITS.nameMax) add('name', exportTemplateMessages.nameTooLong);

  const tables = Object.entries(template.codeTables);
  if (tables.length > EXPORT_LIMITS.tablesMax) add('code_tables', exportTemplateMessages.tooManyTables);
  for (const [table, entries] of tables) {
    if (!table.trim() || table.length > EXPORT_LIMITS.tableNameMax) add('code_tables', exportTemplateMessages.tableNameInvalid);
    const pairs = Object.entries(entries);
    if (pairs.length > EXPORT_LIMITS.entriesMax) add('code_tables', exportTemplateMessages.tooManyEntries(table));
    if (pairs.some(([from, to]) => from.length > EXPORT_LIMITS.codeMax || to.length > EXPORT_LIMITS.codeMax)) add('code_tables', exportTemplateMessages.codeTooLong(table));
  }

  if (template.columns.length === 0) add('columns', exportTemplateMessages.columnsRequired);
  if (template.columns.length > EXPORT_LIMITS.columnsMax) add('columns', exportTemplateMessages.tooManyColumns);
  const headers = new Set<string>();
  for (const column of template.columns) {
    if (!exportFieldSet.has(column.field) && !reviewFieldOf(column.field)) add('columns', exportTemplateMessages.unknownField(column.field));
    const header = column.header;
    if (!header.trim()) add('columns', exportTemplateMessages.headerRequired);
    else if (header.length > EXPORT_LIMITS.headerMax) add('columns', exportTemplateMessages.headerTooLong);
    else if (LINE_BREAK_OR_TAB.test(header)) add('columns', exportTemplateMessages.headerLineBreak);
    else if (headers.has(header)) add('columns', exportTemplateMessages.headerTwice(header));
    headers.add(header);
    if (column.codes !== null && !(column.codes in template.codeTables)) add('columns', exportTemplateMessages.unknownTable(column.codes));
  }

  if (template.filter.stages.length === 0) add('filter', exportTemplateMessages.stagesRequired);
  if (template.filter.terms.length > EXPORT_LIMITS.termsMax) add('filter', exportTemplateMessages.tooManyTerms);
  if (!Number.isInteger(template.schedule.hourUtc) || template.schedule.hourUtc < 0 || template.schedule.hourUtc > 23) add('schedule', exportTemplateMessages.hourInvalid);
  return errors;
}

export type ExportValue = string | number | boolean | null;

/**
 * A value through its column's code table. A value the table does not list leaves as stored and
 * is counted (`unmapped`), so the run can say which columns the SIS may refuse; no value is not
 * translated (an empty cell stays empty).
 */
export function translated(value: ExportValue, table: Record<string, string> | undefined): { value: ExportValue; unmapped: boolean } {
  if (!table || value === null || value === '') return { value, unmapped: false };
  const code = table[String(value)];
  return code === undefined ? { value, unmapped: true } : { value: code, unmapped: false };
}

/** A template to start from: who, when and the main answers, each under the catalogue's key. */
export function starterTemplate(name: string): ExportTemplate {
  const fields = ['application_number', 'email', 'submitted_at', 'first_name', 'last_name', 'birth_date', 'entry_term', 'decision'];
  return {
    name,
    format: 'csv',
    columns: fields.filter((field) => exportFieldSet.has(field)).map((field) => ({ field, header: field, codes: null })),
    filter: { stages: ['submitted'], terms: [], decisions: [], checklist: 'any' },
    codeTables: {},
    schedule: { every: 'never', hourUtc: 2 },
    documents: false,
  };
}

/**
 * A code table from the rows of a two-column CSV (stored value, code), as an SIS hands it over.
 * A first row naming the columns is skipped when its first cell is `value` or `from`. Rows with
 * fewer than two cells are reported by line number.
 */
export function codeTableFromRows(rows: readonly (readonly string[])[]): { table: Record<string, string>; errors: string[] } {
  const table: Record<string, string> = {};
  const errors: string[] = [];
  rows.forEach((row, index) => {
    if (index === 0 && /^(value|from|stored)$/i.test((row[0] ?? '').trim())) return;
    if (row.length === 1 && row[0] === '') return;
    if (row.length < 2) {
      errors.push(`Line ${index + 1} needs two values: the value as stored, then its code.`);
      return;
    }
    table[row[0]!] = row[1]!;
  });
  return { table, errors };
}
