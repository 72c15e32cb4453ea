import { describe, expect, it } from 'vitest';
import { codeTableFromRows, dueInstant, EXPORT_FIELDS, fieldSlug, reviewFieldOf, reviewFieldsFor, exportTemplateErrors, exportTemplateMessages, starterTemplate, translated, tsvIanaField, type ExportTemplate } from './exportTemplates';

const template = (change: Partial<ExportTemplate> = {}): ExportTemplate => ({ ...starterTemplate('SIS nightly'), ...change });

describe('an export template', () => {
  it('the starter template can be saved, and names only fields the export has', () => {
    expect(exportTemplateErrors(template())).toEqual({});
    for (const column of template().columns) expect(EXPORT_FIELDS).toContain(column.field);
  });

  it.each<[string, Partial<ExportTemplate>, string, string]>([
    ['no name', { name: '  ' }, 'name', 'Enter a name for this template.'],
    ['a long name', { name: 'x'.repeat(81) }, 'name', 'The name must be 80 characters or fewer.'],
    ['no column', { columns: [] }, 'columns', 'Choose at least one field.'],
    ['an unknown field', { columns: [{ field: 'shoe_size', header: 'shoe', codes: null }] }, 'columns', '"shoe_size" is not a field of the application.'],
    ['an empty column name', { columns: [{ field: 'email', header: ' ', codes: null }] }, 'columns', 'Each column needs a name.'],
    ['a column name with a line break', { columns: [{ field: 'email', header: 'e\nmail', codes: null }] }, 'columns', 'A column name cannot hold a line break or a tab.'],
    ['a long column name', { columns: [{ field: 'email', header: 'h'.repeat(101), codes: null }] }, 'columns', 'A column name must be 100 characters or fewer.'],
    [
      'two columns of one name',
      {
        columns: [
          { field: 'email', header: 'EMAIL', codes: null },
          { field: 'first_name', header: 'EMAIL', codes: null },
        ],
      },
      'columns',
      'Two columns are named "EMAIL": each needs a name of its own.',
    ],
    ['a missing code table', { columns: [{ field: 'entry_term', header: 'TERM', codes: 'terms' }] }, 'columns', 'There is no code table named "terms".'],
    ['no stage', { filter: { stages: [], terms: [], decisions: [], checklist: 'any' } }, 'filter', 'Choose submitted applications, ones in progress, or both.'],
    ['too many terms', { filter: { stages: ['submitted'], terms: Array.from({ length: 21 }, (_, i) => `T${i}`), decisions: [], checklist: 'any' } }, 'filter', 'Choose at most 20 terms.'],
    ['a long code', { codeTables: { terms: { 'Fall 2027': '2'.repeat(201) } } }, 'code_tables', 'In "terms", a value or code is longer than 200 characters.'],
    ['a table without a name', { codeTables: { '': {} } }, 'code_tables', 'A code table needs a name of 1 to 60 characters.'],
    ['an hour past 23', { schedule: { every: 'day', hourUtc: 24 } }, 'schedule', 'Choose an hour from 0 to 23 (UTC).'],
  ])('%s: %j', (_case, change, part, message) => {
    expect(exportTemplateErrors(template(change))[part]).toEqual([message]);
  });

  it('says the run and name refusals word for word', () => {
    expect(exportTemplateMessages.nameTaken).toBe('Another template has this name.');
    expect(exportTemplateMessages.runInProgress).toBe('This template is being exported already. Wait for that run to end.');
    expect(exportTemplateMessages.tooManyEntries('terms')).toBe('The code table "terms" holds more than 5000 values.');
  });
});

describe('a value through its code table', () => {
  const terms = { 'Fall 2027': '202710', 'Spring 2028': '202820' };
  it.each<[string | number | boolean | null, Record<string, string> | undefined, { value: string | number | boolean | null; unmapped: boolean }]>([
    ['Fall 2027', terms, { value: '202710', unmapped: false }],
    ['Summer 2027', terms, { value: 'Summer 2027', unmapped: true }],
    ['Fall 2027', undefined, { value: 'Fall 2027', unmapped: false }],
    [null, terms, { value: null, unmapped: false }],
    ['', terms, { value: '', unmapped: false }],
    [true, { true: 'Y', false: 'N' }, { value: 'Y', unmapped: false }],
    [3, { 3: 'three' }, { value: 'three', unmapped: false }],
  ])('%j through %j', (value, table, expected) => {
    expect(translated(value, table)).toEqual(expected);
  });
});

describe('a code table loaded from a CSV', () => {
  it('takes value, code pairs, skips a header row and a blank line, and names a short line', () => {
    expect(
      codeTableFromRows([
        ['value', 'code'],
        ['Fall 2027', '202710'],
        [''],
        ['Spring 2028'],
        ['Spring 2028', '202820'],
      ]),
    ).toEqual({ table: { 'Fall 2027': '202710', 'Spring 2028': '202820' }, errors: ['Line 4 needs two values: the value as stored, then its code.'] });
  });
  it('keeps a first row that is data', () => {
    expect(codeTableFromRows([['US', '840']]).table).toEqual({ US: '840' });
  });
});

describe('when a scheduled run is due', () => {
  it.each<[ExportTemplate['schedule'], string, string | null]>([
    [{ every: 'never', hourUtc: 2 }, '2026-11-26T10:30:00Z', null],
    [{ every: 'hour', hourUtc: 2 }, '2026-11-26T10:30:00Z', '2026-11-26T10:00:00.000Z'],
    [{ every: 'hour', hourUtc: 2 }, '2026-11-26T10:00:00Z', '2026-11-26T10:00:00.000Z'],
    [{ every: 'day', hourUtc: 2 }, '2026-11-26T10:30:00Z', '2026-11-26T02:00:00.000Z'],
    [{ every: 'day', hourUtc: 2 }, '2026-11-26T01:59:59Z', '2026-11-25T02:00:00.000Z'],
    [{ every: 'day', hourUtc: 0 }, '2026-12-01T00:00:00Z', '2026-12-01T00:00:00.000Z'],
    [{ every: 'day', hourUtc: 23 }, '2026-12-01T05:00:00Z', '2026-11-30T23:00:00.000Z'],
  ])('%j at %s: %s', (schedule, now, due) => {
    expect(dueInstant(schedule, new Date(now))?.toISOString() ?? null).toBe(due);
  });
});

describe('IANA tab-separated values (issue 51)', () => {
  it.each([
    ['plain', 'plain'],
    ['a\tb', 'a\\tb'],
    ['line\nbreak\r\nboth', 'line\\nbreak\\r\\nboth'],
    ['C:\\path', 'C:\\\\path'],
    ['a\\tb', 'a\\\\tb'],
    ['"quoted", as typed', '"quoted", as typed'],
  ])('writes %j as %j', (value, written) => {
    expect(tsvIanaField(value)).toBe(written);
  });
});


describe("the committee's fields (issue 51 §1)", () => {
  it.each([
    ['review_count', { kind: 'count' }],
    ['composite_score', { kind: 'composite' }],
    ['scale_mean_academic_promise', { kind: 'mean', slug: 'academic_promise' }],
    ['recommended_admit', { kind: 'recommended', slug: 'admit' }],
    ['review_1_reviewer', { kind: 'review', index: 1, part: 'reviewer' }],
    ['review_10_comment', { kind: 'review', index: 10, part: 'comment' }],
    ['review_2_rating_essay', { kind: 'rating', index: 2, slug: 'essay' }],
    ['review_11_reviewer', null],
    ['review_0_reviewer', null],
    ['review_1_score', null],
    ['scale_mean_', null],
  ] as const)('%s', (field, read) => {
    expect(reviewFieldOf(field)).toEqual(read);
  });

  it('names a scale or a recommendation as a field does, and offers each for a form', () => {
    expect(['Academic promise', 'Essay (personal)', 'Ñandú', '  Admit  '].map(fieldSlug)).toEqual(['academic_promise', 'essay_personal', 'nandu', 'admit']);
    const offered = reviewFieldsFor({ scales: [{ name: 'Essay' }], recommendations: ['Admit'] }, 1);
    expect(offered).toEqual([
      { field: 'review_count', label: 'How many reviews' },
      { field: 'composite_score', label: 'The composite score' },
      { field: 'scale_mean_essay', label: 'Essay: the mean rating' },
      { field: 'recommended_admit', label: 'Admit: how many reviews recommend it' },
      { field: 'review_1_reviewer', label: 'Review 1: its reviewer' },
      { field: 'review_1_recommendation', label: 'Review 1: the recommendation' },
      { field: 'review_1_rating_essay', label: 'Review 1: Essay (its point, from 1)' },
      { field: 'review_1_comment', label: 'Review 1: the comment' },
    ]);
    // Every field offered is one a template may name.
    expect(offered.every(({ field }) => reviewFieldOf(field) !== null)).toBe(true);
  });
});
