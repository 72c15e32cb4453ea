import { TextInput } from '../../../ui/TextInput';
import { MutationError } from '../../../ui/MutationError';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { personRecordUrl, useErasePerson } from './api/records';
import { STAFF_HOME } from '../paths';

/** A person's request (admin): everything held about the applicant, and the erasure of their records. */
export function PersonRequestPanel({ applicationId }: { applicationId: string }) {
  const navigate = useNavigate();
  const erase = useErasePerson(applicationId);
  const [reason, setReason] = useState('');
  const [email, setEmail] = useState('');
  const errors = fieldErrorsOf(erase.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    erase.mutate({ reason, email }, { onSuccess: ({ files }) => navigate(STAFF_HOME, { state: { notice: `The applicant’s records and ${files} files were erased.` } }) });
  };
  return (
    <section aria-labelledby="person-request-title" className="card">
      <h2 id="person-request-title">The applicant’s request</h2>
      <p>
        <a href={personRecordUrl(applicationId)} download>
          Download everything held about this applicant (zip)
        </a>
      </p>
      <form onSubmit={submit} noValidate>
        <p>Erasing removes the account, the answers, documents, decision, reviews, notes and files for good. The audit log keeps what it recorded.</p>
        <TextInput id="erase-reason" label="Why (the request, and when it came)" errors={errors.reason} maxLength={500} value={reason} onChange={setReason} />
        <TextInput id="erase-email" label="The applicant’s e-mail address, to confirm" errors={errors.email} type="email" maxLength={254} autoComplete="off" value={email} onChange={setEmail} />
        <Button type="submit" variant="secondary" loading={erase.isPending}>
          Erase this applicant’s records
        </Button>
        <MutationError error={erase.error} fields={errors} />
      </form>
    </section>
  );
}
