import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { components } from '../../../../generated/api';
import { staffRoleCovers } from '../../../../domain/staff';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { duplicatesQuery, useMergeApplications } from './api/records';
import { applicationPath } from '../paths';
import { useStaffMe } from '../session/SignedInConsole';

type Side = components['schemas']['DuplicateSide'];
const REASONS = { name_and_birth_date: 'same name and birth date', email_variant: 'one mailbox' } as const;
const describe = (side: Side) => `${side.name || '(no name)'}, ${side.email}, ${side.status}${side.birth_date ? `, born ${side.birth_date}` : ''}`;

/** Likely duplicates: two records of one person, and (administrators) the merge that keeps both. */
export function DuplicatesPage() {
  usePageTitle('Duplicates');
  const me = useStaffMe();
  const duplicates = useQuery(duplicatesQuery);
  const merge = useMergeApplications();
  const [reason, setReason] = useState('');
  const errors = fieldErrorsOf(merge.error);
  const admin = staffRoleCovers(me.role, 'admin');
  return (
    <>
      <h1>Duplicates</h1>
      <p>
        Records that may be one person: the same name and birth date, or addresses that reach one mailbox (case, a <code>+tag</code>, dots in a Gmail address). Merging keeps both records and their
        histories: the duplicate leaves the list and is named on the record that stays, and the merge can be undone there.
      </p>
      {admin && (
        <Field id="merge-reason" label="Why they are one person (kept with each merge)" errors={errors.reason}>
          <input id="merge-reason" className="input input--outlined" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
      )}
      {duplicates.isPending && <Loading label="Looking for duplicates" />}
      {duplicates.isError && <p role="alert">{duplicates.error?.message}</p>}
      {duplicates.data && duplicates.data.pairs.length === 0 && <p>No likely duplicates.</p>}
      {duplicates.data && duplicates.data.pairs.length > 0 && (
        <ol>
          {duplicates.data.pairs.map(({ a, b, reasons }) => (
            <li key={`${a.id}-${b.id}`} className="card">
              <p>{`Why: ${reasons.map((each) => REASONS[each]).join(' and ')}.`}</p>
              <ul>
                <li>
                  <Link to={applicationPath(a.id)}>{describe(a)}</Link>
                </li>
                <li>
                  <Link to={applicationPath(b.id)}>{describe(b)}</Link>
                </li>
              </ul>
              {admin && (
                <p className="card__actions">
                  <Button variant="secondary" loading={merge.isPending && merge.variables?.into === a.id} onClick={() => merge.mutate({ into: a.id, duplicate: b.id, reason })}>
                    {`Keep ${a.email}, merge ${b.email} into it`}
                  </Button>{' '}
                  <Button variant="secondary" loading={merge.isPending && merge.variables?.into === b.id} onClick={() => merge.mutate({ into: b.id, duplicate: a.id, reason })}>
                    {`Keep ${b.email}, merge ${a.email} into it`}
                  </Button>
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <MutationError error={merge.error} fields={errors} />
      <div role="status">{merge.isSuccess && 'Merged. The duplicate is named on the record that stays.'}</div>
    </>
  );
}
