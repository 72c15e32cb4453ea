import { DataTable } from '../../../ui/DataTable';
import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Loading } from '../../../ui/Loading';
import { conflictsQuery, useWithdrawConflict } from '../reading/api/applications';
import { whenText } from '../paths';

/** Every declared conflict of interest, for administrators to withdraw one (the member sees the application again). */
export function ConflictsPage() {
  usePageTitle('Conflicts of interest');
  const conflicts = useQuery(conflictsQuery);
  const withdraw = useWithdrawConflict();
  return (
    <>
      <h1>Conflicts of interest</h1>
      <p>An application is never shown to a staff member who declared a conflict of interest with it.</p>
      <div role="status">{withdraw.isSuccess && 'Withdrawn: the application is shown to them again.'}</div>
      <MutationError error={withdraw.error} />
      {conflicts.isPending && <Loading label="Loading the conflicts" />}
      {conflicts.isError && <p role="alert">{conflicts.error?.message}</p>}
      {conflicts.data?.length === 0 && <p>No one has declared a conflict of interest.</p>}
      {conflicts.data && conflicts.data.length > 0 && (
        <DataTable
          label="Conflicts table"
          rows={conflicts.data}
          rowKey={(conflict) => `${conflict.application_id}-${conflict.staff_id}`}
          columns={[
            { key: 'application', header: 'Application', rowHeader: true, cell: (conflict) => conflict.name },
            { key: 'staff', header: 'Staff member', cell: (conflict) => conflict.staff_email },
            { key: 'why', header: 'Why', cell: (conflict) => conflict.reason ?? '—' },
            { key: 'declared', header: 'Declared', cell: (conflict) => whenText(conflict.declared_at) },
            {
              key: 'withdraw',
              header: 'Withdraw',
              cell: (conflict) => (
                <Button
                  variant="secondary"
                  loading={withdraw.isPending}
                  aria-label={`Withdraw the conflict of ${conflict.staff_email} with ${conflict.name}`}
                  onClick={() => withdraw.mutate({ applicationId: conflict.application_id, staffId: conflict.staff_id })}
                >
                  Withdraw
                </Button>
              ),
            },
          ]}
        />
      )}
    </>
  );
}
