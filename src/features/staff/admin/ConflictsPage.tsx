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
        <div className="staff-table-wrap" tabIndex={0} role="region" aria-label="Conflicts table">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">Application</th>
                <th scope="col">Staff member</th>
                <th scope="col">Why</th>
                <th scope="col">Declared</th>
                <th scope="col">Withdraw</th>
              </tr>
            </thead>
            <tbody>
              {conflicts.data.map((conflict) => (
                <tr key={`${conflict.application_id}-${conflict.staff_id}`}>
                  <th scope="row">{conflict.name}</th>
                  <td>{conflict.staff_email}</td>
                  <td>{conflict.reason ?? '—'}</td>
                  <td>{whenText(conflict.declared_at)}</td>
                  <td>
                    <Button
                      variant="secondary"
                      loading={withdraw.isPending}
                      aria-label={`Withdraw the conflict of ${conflict.staff_email} with ${conflict.name}`}
                      onClick={() => withdraw.mutate({ applicationId: conflict.application_id, staffId: conflict.staff_id })}
                    >
                      Withdraw
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
