import { MutationError } from '../../../ui/MutationError';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { staffRoleCovers } from '../../../../domain/staff';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { useReinstateApplication, useWithdrawApplication } from './api/records';
import { whenText } from '../paths';
import { useStaffMe } from '../session/SignedInConsole';

type StaffApplication = components['schemas']['StaffApplication'];

/** Withdrawn (submitted) or cancelled (in progress) at the applicant's request: shown to all, set and undone by deciders. */
export function WithdrawalPanel({ application }: { application: StaffApplication }) {
  const me = useStaffMe();
  const decider = staffRoleCovers(me.role, 'decider');
  const withdraw = useWithdrawApplication(application.id);
  const reinstate = useReinstateApplication(application.id);
  const [reason, setReason] = useState('');
  const errors = fieldErrorsOf(withdraw.error);
  const verb = application.submitted_at ? 'Withdraw' : 'Cancel';
  const { withdrawal } = application;
  if (!withdrawal && !decider) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    withdraw.mutate(reason);
  };
  return (
    <section aria-labelledby="withdrawal-title" className="card">
      <h2 id="withdrawal-title">{withdrawal ? (withdrawal.kind === 'withdrawn' ? 'Withdrawn' : 'Cancelled') : 'Withdrawal'}</h2>
      {withdrawal ? (
        <>
          <p>{`${withdrawal.kind === 'withdrawn' ? 'Withdrawn' : 'Cancelled'} at the applicant’s request, ${whenText(withdrawal.at)}, by ${withdrawal.by}: ${withdrawal.reason}`}</p>
          {decider && (
            <Button variant="secondary" loading={reinstate.isPending} onClick={() => reinstate.mutate()}>
              Reinstate the application
            </Button>
          )}
          <MutationError error={reinstate.error} />
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <Field id="withdrawal-reason" label="The applicant’s request (what they asked, and when)" errors={errors.reason}>
            <input id="withdrawal-reason" className="input input--outlined" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
          </Field>
          <Button type="submit" variant="secondary" loading={withdraw.isPending}>
            {`${verb} at the applicant’s request`}
          </Button>
          <MutationError error={withdraw.error} fields={errors} />
        </form>
      )}
    </section>
  );
}
