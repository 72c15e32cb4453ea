import { DataTable } from '../../../ui/DataTable';
import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { EXPORT_FORMAT_LABELS } from '../../../../domain/exportTemplates';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Loading } from '../../../ui/Loading';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Checkbox } from '../../../ui/Checkbox';
import { Field } from '../../../ui/Field';
import { exportClientsQuery, exportRunDocumentsUrl, exportRunFileUrl, exportRunsQuery, exportUrl, exportTemplatesQuery, useCreateExportClient, useDeleteExportTemplate, useRevokeExportClient, useStartExportRun, type ExportRun } from './api/exports';
import { whenText } from '../paths';

const STATUS_TEXT: Record<ExportRun['status'], string> = { running: 'Running', succeeded: 'Done', failed: 'Failed', superseded: 'Superseded' };
/** A run whose files were withdrawn (an applicant it carried was erased) says so, whatever its status. */
const statusOf = (run: ExportRun) => (run.withdrawn_at ? 'Withdrawn' : STATUS_TEXT[run.status]);
const MODE_TEXT: Record<ExportRun['mode'], string> = { changes: 'Changes', all: 'Everything' };

const unmappedText = (unmapped: ExportRun['unmapped']) =>
  unmapped && Object.keys(unmapped).length
    ? Object.entries(unmapped)
        .map(([column, count]) => `${column}: ${count}`)
        .join(', ')
    : '—';

function RunFile({ run }: { run: ExportRun }) {
  if (!run.file_name) return <>{run.message ?? '—'}</>;
  return (
    <>
      <a href={exportRunFileUrl(run.id)} download>{`Download ${run.file_name}`}</a>
      {run.bundle_file_name && (
        <>
          <br />
          <a href={exportRunDocumentsUrl(run.id)} download>{`Download ${run.bundle_file_name}`}</a>
        </>
      )}
    </>
  );
}

function Templates() {
  const templates = useQuery(exportTemplatesQuery);
  const start = useStartExportRun();
  const remove = useDeleteExportTemplate();
  const [confirming, setConfirming] = useState<number | null>(null);
  if (templates.isPending) return <Loading label="Loading the export templates" />;
  if (templates.isError) return <p role="alert">{templates.error?.message}</p>;
  return (
    <>
      {templates.data.templates.length === 0 ? (
        <p>No template yet.</p>
      ) : (
        <DataTable
          label="Export templates table"
          caption="Export templates"
          rows={templates.data.templates}
          rowKey={(template) => String(template.id)}
          columns={[
            { key: 'template', header: 'Template', rowHeader: true, cell: (template) => <Link to={`/staff/export/templates/${template.id}`}>{template.name}</Link> },
            { key: 'file', header: 'File', cell: (template) => EXPORT_FORMAT_LABELS[template.format] },
            { key: 'columns', header: 'Columns', cell: (template) => template.columns },
            { key: 'cursor', header: 'Changes taken up to', cell: (template) => (template.cursor_at ? whenText(template.cursor_at) : 'Not run yet') },
            { key: 'last', header: 'Last run', cell: (template) => (template.last_run ? `${statusOf(template.last_run)}, ${template.last_run.rows ?? 0} rows` : '—') },
            {
              key: 'actions',
              header: 'Actions',
              cell: (template) => (
                <>
                  <Button variant="secondary" loading={start.isPending && start.variables?.template === template.id && start.variables.mode === 'changes'} onClick={() => start.mutate({ template: template.id, mode: 'changes' })}>
                    {`Run the changes of ${template.name}`}
                  </Button>{' '}
                  <Button variant="text" onClick={() => start.mutate({ template: template.id, mode: 'all' })}>
                    {`Run all of ${template.name}`}
                  </Button>{' '}
                  {confirming === template.id ? (
                    <Button variant="text" onClick={() => remove.mutate(template.id, { onSettled: () => setConfirming(null) })}>
                      {`Yes, remove ${template.name}`}
                    </Button>
                  ) : (
                    <Button variant="text" onClick={() => setConfirming(template.id)}>
                      {`Remove ${template.name}`}
                    </Button>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      {(start.isError || remove.isError) && <p role="alert">{(start.error ?? remove.error)?.message}</p>}
      <div role="status">{start.isSuccess && `Run ${start.data.id} of ${start.data.template_name} started: its file appears below when it is done.`}</div>
    </>
  );
}

function Runs() {
  const runs = useQuery(exportRunsQuery);
  if (runs.isPending) return <Loading label="Loading the runs" />;
  if (runs.isError) return <p role="alert">{runs.error?.message}</p>;
  if (runs.data.runs.length === 0) return <p>No run yet.</p>;
  return (
    <DataTable
      label="Export runs table"
      caption="Latest export runs"
      rows={runs.data.runs}
      rowKey={(run) => String(run.id)}
      columns={[
        { key: 'run', header: 'Run', rowHeader: true, cell: (run) => run.id },
        { key: 'template', header: 'Template', cell: (run) => run.template_name },
        { key: 'took', header: 'Took', cell: (run) => MODE_TEXT[run.mode] },
        { key: 'status', header: 'Status', cell: (run) => statusOf(run) },
        { key: 'rows', header: 'Rows', cell: (run) => run.rows ?? '—' },
        { key: 'unmapped', header: 'Values no code table listed', cell: (run) => unmappedText(run.unmapped) },
        { key: 'started', header: 'Started', cell: (run) => `${whenText(run.started_at)} by ${run.started_by}` },
        { key: 'file', header: 'File', cell: (run) => <RunFile run={run} /> },
      ]}
    />
  );
}

/** The SIS's own clients: a key per system, scoped to templates, shown once, revocable. */
function MachineClients() {
  const clients = useQuery(exportClientsQuery);
  const templates = useQuery(exportTemplatesQuery);
  const create = useCreateExportClient();
  const revoke = useRevokeExportClient();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const errors = fieldErrorsOf(create.error);
  const nameOf = (id: number) => templates.data?.templates.find((template) => template.id === id)?.name ?? `Template ${id} (removed)`;
  return (
    <>
      <p>
        A system of the office (an SIS, a CRM) pulls the runs of its templates over HTTPS with a key of its own: <code>GET /machine/api/templates/&lt;id&gt;/runs?after=&lt;last run loaded&gt;</code>, then
        each run&rsquo;s file; <code>POST</code> to the same address takes the next batch now. Its reads are in the audit log as <code>client:&lt;name&gt;</code>.
      </p>
      {clients.data && clients.data.clients.length > 0 && (
        <ul>
          {clients.data.clients.map((client) => (
            <li key={client.id}>
              {`${client.name}: ${client.templates.map(nameOf).join(', ')}; ${client.revoked_at ? `revoked ${whenText(client.revoked_at)}` : `last used ${client.last_used_at ? whenText(client.last_used_at) : 'never'}`}`}{' '}
              {!client.revoked_at && (
                <Button variant="text" onClick={() => revoke.mutate(client.id)}>
                  {`Revoke the key of ${client.name}`}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {templates.data && templates.data.templates.length > 0 && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate({ name, templates: chosen }, { onSuccess: () => (setName(''), setChosen([])) });
          }}
        >
          <fieldset className="staff-scale">
            <legend>A new client</legend>
            <Field id="client-name" label="Name of the system" errors={errors.name}>
              <input id="client-name" className="input input--outlined" value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
            </Field>
            <fieldset>
              <legend>Templates it may read</legend>
              {errors.templates && (
                <p className="field__error">
                  <span className="visually-hidden">Error: </span>
                  {errors.templates.join(' ')}
                </p>
              )}
              {templates.data.templates.map((template) => (
                <Checkbox key={template.id} id={`client-template-${template.id}`} label={template.name} checked={chosen.includes(template.id)} onChange={(on) => setChosen((current) => (on ? [...current, template.id] : current.filter((id) => id !== template.id)))} />
              ))}
            </fieldset>
            <Button type="submit" variant="secondary" loading={create.isPending} aria-disabled={chosen.length === 0 || undefined}>
              Make the client and its key
            </Button>
          </fieldset>
        </form>
      )}
      <MutationError error={create.error} fields={errors} />
      <MutationError error={revoke.error} />
      <div role="status">
        {create.isSuccess && (
          <p>
            {`The key of ${create.data.client.name}, shown this once (the portal keeps only its hash): `}
            <code className="staff-key">{create.data.key}</code>
          </p>
        )}
      </div>
    </>
  );
}

function SpreadsheetExport() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const backwards = from !== '' && to !== '' && to <= from;
  return (
    <>
      <p>
        Every submitted application, one column per question (each choice with its label in the <code>_desc</code> column beside it), for reading in a spreadsheet: cells a spreadsheet
        would run as a formula start with an apostrophe, so use a template for a system that loads the file.
      </p>
      <fieldset className="staff-range">
        <legend>Submitted between (optional; days in UTC)</legend>
        <div className="field">
          <label className="field__label" htmlFor="export-from">
            From (this day included)
          </label>
          <input id="export-from" className="input input--outlined" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="export-to">
            Until (this day not included)
          </label>
          <input id="export-to" className="input input--outlined" type="date" value={to} onChange={(event) => setTo(event.target.value)} aria-describedby={backwards ? 'export-to-error' : undefined} aria-invalid={backwards || undefined} />
          {backwards && (
            <span id="export-to-error" className="field__error">
              <span className="visually-hidden">Error: </span>The end of the range must be after its start.
            </span>
          )}
        </div>
      </fieldset>
      {!backwards && (
        <p className="card__actions">
          <a className="button button--primary" href={exportUrl('csv', from, to)} download>
            Download CSV
          </a>
          <a className="button button--secondary" href={exportUrl('jsonl', from, to)} download>
            Download JSON Lines
          </a>
        </p>
      )}
    </>
  );
}

/**
 * The admin's exports: templates for the systems that load applications (each run takes what
 * changed since the last), their runs and files, and the whole list for a spreadsheet.
 */
export function ExportPage() {
  usePageTitle('Export');
  return (
    <>
      <h1>Export</h1>
      <p>
        A template says which applications leave, which fields under which column names, the codes your system wants, and the file. Each run takes what changed since the template&rsquo;s last run (new
        submissions, answers, checklists, bins and released decisions), each change in exactly one file, which is also written to the portal&rsquo;s storage. Every run and download is recorded in the
        audit log with the applicants it carried.
      </p>
      <p>
        <Link className="button button--primary" to="/staff/export/templates/new">
          New template
        </Link>
      </p>
      <h2>Templates</h2>
      <Templates />
      <h2>Latest runs</h2>
      <Runs />
      <h2>Machine clients</h2>
      <MachineClients />
      <h2>Everything, for a spreadsheet</h2>
      <SpreadsheetExport />
    </>
  );
}
