import { MutationError } from '../../../ui/MutationError';
import { Link } from 'react-router-dom';
import type { components } from '../../../../generated/api';
import { staffRoleCovers } from '../../../../domain/staff';
import { Button } from '../../../ui/Button';
import { useUnmergeApplication } from './api/records';
import { applicationPath } from '../paths';
import { useStaffMe } from '../session/SignedInConsole';

type StaffApplication = components['schemas']['StaffApplication'];

/** A record merged into another, or one with duplicates merged into it: both named, the merge undone by an administrator. */
export function MergedPanel({ application }: { application: StaffApplication }) {
  const me = useStaffMe();
  const unmerge = useUnmergeApplication();
  if (!application.merged_into && application.merged_from.length === 0) return null;
  return (
    <section aria-labelledby="merged-title" className="card">
      <h2 id="merged-title">{application.merged_into ? 'Merged into another record' : 'Duplicates merged into this record'}</h2>
      {application.merged_into ? (
        <>
          <p>
            This record is a duplicate of <Link to={applicationPath(application.merged_into)}>the record that stays</Link>. It keeps its own answers and history, and is left out of the list.
          </p>
          {staffRoleCovers(me.role, 'admin') && (
            <Button variant="secondary" loading={unmerge.isPending} onClick={() => unmerge.mutate(application.id)}>
              Undo the merge
            </Button>
          )}
          <MutationError error={unmerge.error} />
          <div role="status">{unmerge.isSuccess && 'This record stands on its own again. Open it again to see it so.'}</div>
        </>
      ) : (
        <ul>
          {application.merged_from.map((id, index) => (
            <li key={id}>
              <Link to={applicationPath(id)}>{`Duplicate record ${index + 1}`}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
