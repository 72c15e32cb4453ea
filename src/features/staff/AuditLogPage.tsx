import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Select } from '../../ui/Select';
import { auditQuery, type AuditAction, type AuditQuery } from './api/admin';
import { applicationPath, whenText } from './paths';
import { Pager, useListParams } from './listControls';

const ACTIONS: { value: AuditAction; label: string }[] = [
  { value: 'application_view', label: 'Viewed an application' },
  { value: 'applications_list', label: 'Listed or searched applications' },
  { value: 'dashboard_view', label: 'Viewed the dashboard' },
  { value: 'audit_view', label: 'Read the audit log' },
  { value: 'document_download', label: 'Downloaded a document' },
  { value: 'pdf_download', label: 'Downloaded a PDF copy' },
  { value: 'pdf_remake', label: 'Asked for a new PDF copy' },
  { value: 'note_add', label: 'Added a note' },
  { value: 'export', label: 'Exported applications' },
  { value: 'sign_in', label: 'Signed in' },
  { value: 'sign_in_failed', label: 'Failed to sign in' },
  { value: 'sign_in_refused', label: 'Sign-in refused (too many attempts)' },
  { value: 'sign_out', label: 'Signed out' },
  { value: 'staff_invite', label: 'Invited a staff member' },
  { value: 'setup_link_view', label: 'Opened a set-up link' },
  { value: 'staff_setup', label: 'Set up a staff account' },
  { value: 'staff_remove', label: 'Removed a staff member' },
  { value: 'staff_role_change', label: "Changed a staff member's role" },
];
const actionLabel = (action: string) => ACTIONS.find((a) => a.value === action)?.label ?? action;
const detailText = (detail: Record<string, string | number | null | string[]>) =>
  Object.entries(detail)
    .filter(([, value]) => value !== null && value !== '')
    .map(([key, value]) => (Array.isArray(value) ? `${value.length} ${value.length === 1 ? 'application' : 'applications'} shown` : `${key.replace(/_/g, ' ')}: ${value}`))
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
            <div className="staff-table-wrap" tabIndex={0} role="region" aria-label="Audit log table">
              <table className="staff-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">What</th>
                    <th scope="col">Application</th>
                    <th scope="col">Details</th>
                    <th scope="col">From</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((entry) => (
                    <tr key={entry.id}>
                      <td>
                        <time dateTime={entry.at}>{whenText(entry.at)}</time>
                      </td>
                      <td>{entry.staff_email}</td>
                      <td>{actionLabel(entry.action)}</td>
                      <td>{entry.application_id ? <Link to={applicationPath(entry.application_id)}>{entry.applicant_email ?? entry.application_id}</Link> : '—'}</td>
                      <td>{detailText(entry.detail) || '—'}</td>
                      <td>{entry.ip}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={data.page} pages={pages} onPage={(next) => change({ page: String(next) })} />
        </>
      )}
    </>
  );
}
