import { useQuery } from '@tanstack/react-query';
import { parse } from 'csv-parse/browser/esm/sync';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { fieldByKey } from '../../../../domain/catalogue';
import { DECISIONS } from '../../../../domain/decisions';
import { CHECKLIST_FILTERS, codeTableFromRows, EXPORT_FIELDS, reviewFieldsFor, EXPORT_FORMAT_LABELS, EXPORT_FORMATS, EXPORT_LIMITS, starterTemplate, UNMAPPED_VALUE_LABELS, UNMAPPED_VALUES, type ExportFormat, type UnmappedValues } from '../../../../domain/exportTemplates';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { RadioGroup } from '../../../ui/RadioGroup';
import { Select } from '../../../ui/Select';
import { exportTemplateQuery, useCreateExportTemplate, useUpdateExportTemplate, type ExportTemplateBody } from './api/exports';
import { reviewFormQuery } from '../review/api/review';

const FIELD_OPTIONS = EXPORT_FIELDS.map((field) => {
  const label = fieldByKey.get(field)?.label;
  return { value: field, label: label ? `${field} (${label}${field.endsWith('_desc') ? ', its label' : ''})` : field };
});
const FORMAT_OPTIONS = EXPORT_FORMATS.map((format) => ({ value: format, label: EXPORT_FORMAT_LABELS[format] }));
const TERM_OPTIONS = fieldByKey.get('entry_term')?.options ?? [];
const DECISION_LABELS: Record<string, string> = { admit: 'Admitted', deny: 'Denied', waitlist: 'Waitlisted', defer: 'Deferred', none: 'No decision released yet' };
const CHECKLIST_LABELS: Record<(typeof CHECKLIST_FILTERS)[number], string> = { any: 'Complete or not', complete: 'Complete', incomplete: 'Still missing something' };

interface ColumnDraft {
  id: number;
  field: string;
  header: string;
  codes: string;
}
interface TableDraft {
  id: number;
  name: string;
  /** The table as CSV text: a stored value, then its code, one pair per line. */
  text: string;
}
interface Draft {
  name: string;
  format: ExportFormat;
  columns: ColumnDraft[];
  filter: ExportTemplateBody['filter'];
  tables: TableDraft[];
  schedule: ExportTemplateBody['schedule'];
  documents: boolean;
  unmappedValues: UnmappedValues;
}
const UNMAPPED_OPTIONS = UNMAPPED_VALUES.map((value) => ({ value, label: UNMAPPED_VALUE_LABELS[value] }));

const SCHEDULE_OPTIONS = [
  { value: 'never', label: 'Only when asked' },
  { value: 'hour', label: 'Every hour' },
  { value: 'day', label: 'Every day' },
];
const HOUR_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({ value: String(hour), label: `${String(hour).padStart(2, '0')}:00 UTC` }));

const toCsvText = (table: Record<string, string>) =>
  Object.entries(table)
    .map((pair) => pair.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(','))
    .join('\n');

const draftOf = (template: ExportTemplateBody): Draft => ({
  name: template.name,
  format: template.format,
  columns: template.columns.map((column, id) => ({ id, field: column.field, header: column.header, codes: column.codes ?? '' })),
  filter: template.filter,
  tables: Object.entries(template.code_tables).map(([name, table], id) => ({ id, name, text: toCsvText(table) })),
  schedule: template.schedule,
  documents: template.documents,
  unmappedValues: template.unmapped_values ?? 'keep',
});

/** A table's text read as CSV: the pairs, or what is wrong with it. */
function readTable(text: string): { table: Record<string, string>; errors: string[] } {
  try {
    return codeTableFromRows(parse(text, { relax_column_count: true, skip_empty_lines: true, trim: false }) as string[][]);
  } catch (error) {
    return { table: {}, errors: [`This table cannot be read as CSV: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

const nextId = (items: readonly { id: number }[]) => Math.max(-1, ...items.map((item) => item.id)) + 1;

/** The record's and the answers' fields, then the committee's for the review form in force (issue 51 §1). */
function useFieldOptions() {
  const form = useQuery(reviewFormQuery);
  return [...FIELD_OPTIONS, ...(form.data ? reviewFieldsFor(form.data).map(({ field, label }) => ({ value: field, label: `${field} (${label})` })) : [])];
}

function TemplateForm({ initial, submitLabel, save, pending, error }: { initial: ExportTemplateBody; submitLabel: string; save: (body: ExportTemplateBody) => void; pending: boolean; error: Error | null }) {
  const fieldOptions = useFieldOptions();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [tableErrors, setTableErrors] = useState<Record<number, string[]>>({});
  const errors = fieldErrorsOf(error);
  const edit = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const editColumn = (id: number, patch: Partial<ColumnDraft>) => edit({ columns: draft.columns.map((column) => (column.id === id ? { ...column, ...patch } : column)) });
  const editTable = (id: number, patch: Partial<TableDraft>) => edit({ tables: draft.tables.map((table) => (table.id === id ? { ...table, ...patch } : table)) });
  const move = (index: number, by: -1 | 1) => {
    const columns = [...draft.columns];
    [columns[index], columns[index + by]] = [columns[index + by]!, columns[index]!];
    edit({ columns });
  };
  const toggle = <T extends string>(list: readonly T[], value: T, on: boolean): T[] => (on ? [...list, value] : list.filter((each) => each !== value));
  const tableNames = draft.tables.map((table) => table.name.trim()).filter(Boolean);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = draft.tables.map((table) => ({ draft: table, ...readTable(table.text) }));
    const unreadable = Object.fromEntries(read.filter((each) => each.errors.length).map((each) => [each.draft.id, each.errors]));
    setTableErrors(unreadable);
    if (Object.keys(unreadable).length) return;
    save({
      name: draft.name.trim(),
      format: draft.format,
      columns: draft.columns.map((column) => ({ field: column.field, header: column.header, codes: column.codes || null })),
      filter: draft.filter,
      code_tables: Object.fromEntries(read.map((each) => [each.draft.name.trim(), each.table])),
      schedule: draft.schedule,
      documents: draft.documents,
      unmapped_values: draft.unmappedValues,
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field id="template-name" label="Name" errors={errors.name}>
        <input id="template-name" className="input input--outlined" value={draft.name} maxLength={EXPORT_LIMITS.nameMax} onChange={(event) => edit({ name: event.target.value })} />
      </Field>
      <RadioGroup id="template-format" legend="File" value={draft.format} options={FORMAT_OPTIONS} onChange={(value) => edit({ format: value as ExportFormat })} errors={errors.format} />

      <Field id="template-every" label="Runs by itself (each run takes the changes since the last)" errors={errors.schedule}>
        <Select id="template-every" value={draft.schedule.every} options={SCHEDULE_OPTIONS} onChange={(value) => value && edit({ schedule: { ...draft.schedule, every: value as Draft['schedule']['every'] } })} />
      </Field>
      {draft.schedule.every === 'day' && (
        <Field id="template-hour" label="At">
          <Select id="template-hour" value={String(draft.schedule.hour_utc)} options={HOUR_OPTIONS} onChange={(value) => value && edit({ schedule: { ...draft.schedule, hour_utc: Number(value) } })} />
        </Field>
      )}
      <Checkbox id="template-documents" label="Also write the applications’ documents as a zip, with a manifest (for imaging)" checked={draft.documents} onChange={(documents) => edit({ documents })} />

      <fieldset className="staff-scale">
        <legend>Which applications</legend>
        {errors.filter && (
          <p className="field__error">
            <span className="visually-hidden">Error: </span>
            {errors.filter.join(' ')}
          </p>
        )}
        <Checkbox id="stage-submitted" label="Submitted" checked={draft.filter.stages.includes('submitted')} onChange={(on) => edit({ filter: { ...draft.filter, stages: toggle(draft.filter.stages, 'submitted', on) } })} />
        <Checkbox id="stage-in-progress" label="In progress (started, not submitted)" checked={draft.filter.stages.includes('in_progress')} onChange={(on) => edit({ filter: { ...draft.filter, stages: toggle(draft.filter.stages, 'in_progress', on) } })} />
        <fieldset>
          <legend>Entry terms (none chosen: every term)</legend>
          {TERM_OPTIONS.map((term) => (
            <Checkbox key={term.value} id={`term-${term.value}`} label={term.label} checked={draft.filter.terms.includes(term.value)} onChange={(on) => edit({ filter: { ...draft.filter, terms: toggle(draft.filter.terms, term.value, on) } })} />
          ))}
        </fieldset>
        <fieldset>
          <legend>Released decisions (none chosen: any)</legend>
          {[...DECISIONS, 'none' as const].map((decision) => (
            <Checkbox key={decision} id={`decision-${decision}`} label={DECISION_LABELS[decision]!} checked={draft.filter.decisions.includes(decision)} onChange={(on) => edit({ filter: { ...draft.filter, decisions: toggle(draft.filter.decisions, decision, on) } })} />
          ))}
        </fieldset>
        <Field id="template-checklist" label="Checklist">
          <Select id="template-checklist" value={draft.filter.checklist} options={CHECKLIST_FILTERS.map((value) => ({ value, label: CHECKLIST_LABELS[value] }))} onChange={(value) => value && edit({ filter: { ...draft.filter, checklist: value as Draft['filter']['checklist'] } })} />
        </Field>
      </fieldset>

      <h2>Columns</h2>
      {errors.columns && (
        <p className="field__error">
          <span className="visually-hidden">Error: </span>
          {errors.columns.join(' ')}
        </p>
      )}
      <ol className="staff-export-columns">
        {draft.columns.map((column, index) => {
          const id = `column-${column.id}`;
          return (
            <li key={column.id}>
              <fieldset className="staff-scale">
                <legend>Column {index + 1}</legend>
                <Field id={`${id}-field`} label="Field">
                  <Select
                    id={`${id}-field`}
                    value={column.field}
                    // A field saved that is not offered now (a review beyond the third, a scale since renamed) stays as it is.
                    options={column.field && !fieldOptions.some((option) => option.value === column.field) ? [...fieldOptions, { value: column.field, label: column.field }] : fieldOptions}
                    onChange={(value) => editColumn(column.id, { field: value, header: column.header || value })}
                  />
                </Field>
                <Field id={`${id}-header`} label="Column name in the file">
                  <input id={`${id}-header`} className="input input--outlined" value={column.header} maxLength={EXPORT_LIMITS.headerMax} onChange={(event) => editColumn(column.id, { header: event.target.value })} />
                </Field>
                <Field id={`${id}-codes`} label="Code table (-- : values exactly as stored)">
                  <Select id={`${id}-codes`} value={column.codes} options={tableNames.map((name) => ({ value: name, label: name }))} onChange={(value) => editColumn(column.id, { codes: value })} />
                </Field>
                <p className="card__actions">
                  {index > 0 && (
                    <Button variant="text" onClick={() => move(index, -1)}>
                      Move column {index + 1} up
                    </Button>
                  )}
                  {index < draft.columns.length - 1 && (
                    <Button variant="text" onClick={() => move(index, 1)}>
                      Move column {index + 1} down
                    </Button>
                  )}
                  <Button variant="text" onClick={() => edit({ columns: draft.columns.filter((each) => each.id !== column.id) })}>
                    Remove column {index + 1}
                  </Button>
                </p>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p>
        <Button
          variant="secondary"
          aria-disabled={draft.columns.length >= EXPORT_LIMITS.columnsMax || undefined}
          onClick={() => draft.columns.length < EXPORT_LIMITS.columnsMax && edit({ columns: [...draft.columns, { id: nextId(draft.columns), field: 'email', header: '', codes: '' }] })}
        >
          Add a column
        </Button>
      </p>

      <h2>Code tables</h2>
      <p>A stored value, a comma, then the code your system wants, one pair per line (CSV). The run counts every value a table does not list.</p>
      <RadioGroup id="template-unmapped" legend="A value its table does not list" value={draft.unmappedValues} options={UNMAPPED_OPTIONS} onChange={(value) => edit({ unmappedValues: value as UnmappedValues })} errors={errors.unmapped_values} />
      {errors.code_tables && (
        <p className="field__error">
          <span className="visually-hidden">Error: </span>
          {errors.code_tables.join(' ')}
        </p>
      )}
      {draft.tables.map((table, index) => {
        const id = `table-${table.id}`;
        return (
          <fieldset key={table.id} className="staff-scale">
            <legend>Code table {index + 1}</legend>
            <Field id={`${id}-name`} label="Name">
              <input id={`${id}-name`} className="input input--outlined" value={table.name} maxLength={EXPORT_LIMITS.tableNameMax} onChange={(event) => editTable(table.id, { name: event.target.value })} />
            </Field>
            <Field id={`${id}-text`} label="Values and codes" errors={tableErrors[table.id]}>
              <textarea id={`${id}-text`} className="input input--outlined" rows={6} value={table.text} onChange={(event) => editTable(table.id, { text: event.target.value })} />
            </Field>
            <Field id={`${id}-file`} label="Or load them from a CSV file">
              <input id={`${id}-file`} type="file" accept=".csv,text/csv" onChange={(event) => void event.target.files?.[0]?.text().then((text) => editTable(table.id, { text }))} />
            </Field>
            <Button variant="text" onClick={() => edit({ tables: draft.tables.filter((each) => each.id !== table.id) })}>
              Remove code table {table.name || index + 1}
            </Button>
          </fieldset>
        );
      })}
      <p>
        <Button variant="secondary" onClick={() => edit({ tables: [...draft.tables, { id: nextId(draft.tables), name: '', text: '' }] })}>
          Add a code table
        </Button>
      </p>
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
      {error && !Object.keys(errors).length && <p role="alert">{error.message}</p>}
    </form>
  );
}

function NewTemplate() {
  const navigate = useNavigate();
  const create = useCreateExportTemplate();
  const { codeTables, schedule, ...starter } = starterTemplate('');
  return (
    <TemplateForm
      initial={{ ...starter, code_tables: codeTables, schedule: { every: schedule.every, hour_utc: schedule.hourUtc } }}
      submitLabel="Make the template"
      pending={create.isPending}
      error={create.error}
      save={(body) => create.mutate(body, { onSuccess: () => navigate('/staff/export') })}
    />
  );
}

function EditTemplate({ id }: { id: number }) {
  const template = useQuery(exportTemplateQuery(id));
  const update = useUpdateExportTemplate(id);
  if (template.isPending) return <Loading label="Loading the template" />;
  if (template.isError) return <p role="alert">{template.error?.message}</p>;
  return (
    <>
      <TemplateForm key={template.data.updated_at} initial={template.data} submitLabel="Save the template" pending={update.isPending} error={update.error} save={(body) => update.mutate(body)} />
      <div role="status">{update.isSuccess && 'Saved. The next run of changes takes what changed since the last one, in these columns.'}</div>
    </>
  );
}

/** One export template (admin): its file, which applications, its columns and code tables. */
export function ExportTemplatePage() {
  const { template = 'new' } = useParams();
  const isNew = template === 'new';
  usePageTitle(isNew ? 'New export template' : 'Edit export template');
  return (
    <>
      <p>
        <Link to="/staff/export">Back to Export</Link>
      </p>
      <h1>{isNew ? 'New export template' : 'Edit export template'}</h1>
      {isNew ? <NewTemplate /> : <EditTemplate id={Number(template)} />}
    </>
  );
}
