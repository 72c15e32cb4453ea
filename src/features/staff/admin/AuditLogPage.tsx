import { DataTable } from '../../../ui/DataTable';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { auditQuery, type AuditAction, type AuditQuery } from './api/admin';
import { applicationPath, whenText } from '../paths';
import { Pager, useListParams } from '../kit/listControls';

/** Every action's words: a Record, so an action the contract adds has none until it is named here (tsc). */
const ACTION_LABELS: Record<AuditAction, string> = {
  application_view: 'Viewed an application',
  access_refused: 'Was refused',
  answer_correct: 'Corrected an answer',
  person_export: 'Downloaded everything held about an applicant',
  application_withdraw: 'Withdrew or cancelled an application',
  duplicates_view: 'Listed likely duplicates',
  sign_in_rules_change: 'Set who may sign in with the institution’s account',
  application_merge: 'Merged a duplicate record',
  application_unmerge: 'Undid a merge',
  application_reinstate: 'Reinstated an application',
  person_erase: 'Erased an applicant’s records',
  retention_change: 'Set how long applications are kept',
  retention_erase: 'Erased an application past its retention',
  export_template_change: 'Changed an export template',
  export_client_change: 'Made or revoked a machine client',
  export_run: 'Ran an export template',
  export_download: "Downloaded an export run's file",
  export_run_withdraw: "Withdrew an export run's files (they carried an erased applicant)",
  applications_list: 'Listed or searched applications',
  dashboard_view: 'Viewed the dashboard',
  audit_view: 'Read the audit log',
  document_download: 'Downloaded a document',
  document_view: 'Read a document in the page',
  pdf_download: 'Downloaded a PDF copy',
  pdf_remake: 'Asked for a new PDF copy',
  note_add: 'Added a note',
  checklist_mark: 'Marked a checklist item',
  checklist_view: 'Read a checklist',
  checklist_rules_change: 'Changed the checklist',
  material_attach: 'Attached a file to a checklist item',
  material_view: 'Read a checklist file in the page',
  material_download: 'Downloaded a checklist file',
  material_remove: 'Removed a checklist file',
  review_submit: 'Signed a review',
  review_form_change: 'Changed the review form',
  composite_formula_change: 'Changed the composite score formula',
  committee_view: 'Read applications as the committee',
  reply_dates_change: 'Changed the reply dates',
  decision_reply_record: 'Recorded or corrected a reply',
  bins_change: 'Changed the bins',
  bin_move: 'Moved an application to a bin',
  assign: 'Gave an application to a reader',
  unassign: 'Took an application back from a reader',
  conflict_declare: 'Declared a conflict of interest',
  conflict_withdraw: 'Withdrew a conflict of interest',
  decision_set: 'Recorded a decision',
  decision_change: 'Changed a released decision',
  decision_release: 'Released a decision',
  decision_recall: 'Called back a scheduled release',
  decision_reply: 'Replied to an offer (the applicant)',
  letter_template_change: 'Changed a letter template',
  letter_preview: 'Previewed a letter',
  export: 'Exported applications',
  sign_in: 'Signed in',
  sign_in_failed: 'Failed to sign in',
  sign_in_refused: 'Sign-in refused (too many attempts)',
  sign_out: 'Signed out',
  staff_invite: 'Invited a staff member',
  setup_link_view: 'Opened a set-up link',
  staff_setup: 'Set up a staff account',
  staff_remove: 'Removed a staff member',
  staff_role_change: "Changed a staff member's role",
};
const ACTIONS = Object.entries(ACTION_LABELS).map(([value, label]) => ({ value: value as AuditAction, label }));
const actionLabel = (action: string) => ACTION_LABELS[action as AuditAction] ?? action;
const detailText = (detail: Record<string, string | number | null | string[]>) =>
  Object.entries(detail)
    .filter(([, value]) => value !== null && value !== '')
    .map(([key, value]) =>
      // `ids`: the applications a list page showed; any other list (the bins' names) is read out.
      key === 'ids' && Array.isArray(value) ? `${value.length} ${value.length === 1 ? 'application' : 'applications'} shown` : `${key.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : value}`,
    )
    .join(', ');

/** The record of disclosures, read-only, newest first. */
export function AuditLogPage() {
  usePageTitle('Audit log');
  const { params, change, page } = useListParams();
  const query: AuditQuery = {
    ...(params.get('action') ? { action: params.get('action') as AuditAction } : {}),
    ...(params.get('staff') ? { staff: params.get('staff')! } : {}),
    ...(params.get('application') ? { application: params.get('application')! } : {}),
    page,
  };
  const log = useQuery(auditQuery(query));
  const [staff, setStaff] = useState(query.staff ?? '');
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  return (
    <>
      <h1>Audit log</h1>
      <p>Every staff sign-in, application view, download and export: who, what, when and from where. No one can change it.</p>
      <div className="staff-filters">
        <Field id="audit-action" label="What">
          <Select id="audit-action" value={query.action ?? ''} options={ACTIONS} onChange={(value) => change({ action: value || undefined })} />
        </Field>
        <form
          className="staff-filters__search"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            change({ staff: staff.trim() || undefined });
          }}
        >
          <Field id="audit-staff" label="Staff e-mail">
            <div className="field__control">
              <input id="audit-staff" className="input input--outlined" type="email" value={staff} onChange={(event) => setStaff(event.target.value)} maxLength={254} />
              <Button type="submit">Filter</Button>
            </div>
          </Field>
        </form>
        {query.application && (
          <p>
            One application only. <Button variant="text" onClick={() => change({ application: undefined })}>Show all</Button>
          </p>
        )}
      </div>
      {log.isPending && <Loading label="Loading the audit log" />}
      {log.isError && <p role="alert">{log.error?.message}</p>}
      {data && (
        <>
          <p role="status">{data.total === 0 ? 'No entries match.' : `${data.total.toLocaleString('en-US')} entr${data.total === 1 ? 'y' : 'ies'}, page ${data.page} of ${pages}.`}</p>
          {data.items.length > 0 && (
            <DataTable
              label="Audit log table"
              rows={data.items}
              rowKey={(entry) => String(entry.id)}
              columns={[
                { key: 'when', header: 'When', cell: (entry) => <time dateTime={entry.at}>{whenText(entry.at)}</time> },
                { key: 'who', header: 'Who', cell: (entry) => entry.staff_email },
                { key: 'what', header: 'What', cell: (entry) => actionLabel(entry.action) },
                {
                  key: 'application',
                  header: 'Application',
                  cell: (entry) => (entry.application_id ? <Link to={applicationPath(entry.application_id)}>{entry.applicant_email ?? entry.application_id}</Link> : '—'),
                },
                { key: 'details', header: 'Details', cell: (entry) => detailText(entry.detail) || '—' },
                { key: 'from', header: 'From', cell: (entry) => entry.ip },
              ]}
            />
          )}
          <Pager page={data.page} pages={pages} onPage={(next) => change({ page: String(next) })} />
        </>
      )}
    </>
  );
}
