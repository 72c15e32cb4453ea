import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api';
import { staffRoleCovers } from '../../../../domain/staff';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Select } from '../../../ui/Select';
import { binsQuery, readersQuery, useAssignApplications, useMoveApplications, useUnassignApplication } from './api/review';
import { useStaffMe } from '../session/SignedInConsole';
import { whenText } from '../paths';

type StaffApplication = components['schemas']['StaffApplication'];

/** The value of "in no bin" in the bin choices. */
export const NO_BIN = 'none';

/** Where an application is in the office's workflow: its bin and its readers; a decider moves it and gives it to readers. */
export function WorkflowPanel({ application }: { application: StaffApplication }) {
  const decider = staffRoleCovers(useStaffMe().role, 'decider');
  return (
    <section aria-labelledby="workflow-title" className="staff-workflow">
      <h2 id="workflow-title">Bin and readers</h2>
      <p>
        Bin: {application.bin ? `${application.bin.name}${application.bin.blind ? ' (read blind)' : ''}` : 'none'}
      </p>
      {application.assignments.length === 0 ? (
        <p>Not given to a reader.</p>
      ) : (
        <ul className="staff-list">
          {application.assignments.map((assignment) => (
            <li key={assignment.staff_id}>
              {assignment.staff_email}: {assignment.reviewed_at ? `reviewed ${whenText(assignment.reviewed_at)}` : `to read (given ${whenText(assignment.assigned_at)})`}
              {decider && !assignment.reviewed_at && <TakeBack applicationId={application.id} staffId={assignment.staff_id} email={assignment.staff_email} />}
            </li>
          ))}
        </ul>
      )}
      {decider && <WorkflowControls application={application} />}
    </section>
  );
}

function TakeBack({ applicationId, staffId, email }: { applicationId: string; staffId: string; email: string }) {
  const unassign = useUnassignApplication(applicationId);
  return (
    <>
      {' '}
      <Button variant="secondary" loading={unassign.isPending} onClick={() => unassign.mutate(staffId)} aria-label={`Take back from ${email}`}>
        Take back
      </Button>
      {unassign.isError && <span role="alert"> {unassign.error.message}</span>}
    </>
  );
}

function WorkflowControls({ application }: { application: StaffApplication }) {
  const bins = useQuery(binsQuery);
  const readers = useQuery(readersQuery);
  const move = useMoveApplications();
  const assign = useAssignApplications();
  const [bin, setBin] = useState('');
  const [reader, setReader] = useState('');
  const given = new Set(application.assignments.map((a) => a.staff_id));
  const readerOptions = (readers.data ?? []).filter((r) => !given.has(r.id)).map((r) => ({ value: r.id, label: `${r.email} (${r.open} to read)` }));
  const binOptions = [...(bins.data?.bins ?? []).filter((b) => b.id !== application.bin?.id).map((b) => ({ value: String(b.id), label: b.name })), ...(application.bin ? [{ value: NO_BIN, label: 'No bin' }] : [])];
  return (
    <div className="staff-workflow__controls">
      <Field id="move-to-bin" label="Move to">
        <div className="field__control">
          <Select id="move-to-bin" value={bin} options={binOptions} onChange={setBin} />
          <Button
            variant="secondary"
            loading={move.isPending}
            aria-disabled={!bin || undefined}
            onClick={() => bin && move.mutate({ application_ids: [application.id], bin_id: bin === NO_BIN ? null : Number(bin) }, { onSuccess: () => setBin('') })}
          >
            Move
          </Button>
        </div>
      </Field>
      <MutationError error={move.error} />
      <Field id="give-to-reader" label="Give to a reader">
        <div className="field__control">
          <Select id="give-to-reader" value={reader} options={readerOptions} onChange={setReader} />
          {/* Chosen on the file itself, its readers in sight: a second reader is what is asked. */}
          <Button
            variant="secondary"
            loading={assign.isPending}
            aria-disabled={!reader || undefined}
            onClick={() => reader && assign.mutate({ application_ids: [application.id], reader_ids: [reader], second_reader: true }, { onSuccess: () => setReader('') })}
          >
            Give
          </Button>
        </div>
      </Field>
      <div role="status">{assign.data && assign.data.skipped.length > 0 && `Not given: ${assign.data.skipped[0]!.reason}`}</div>
      <MutationError error={assign.error} />
    </div>
  );
}
