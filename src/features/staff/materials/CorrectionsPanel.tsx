import { MutationError } from '../../../ui/MutationError';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { allFields, documentKeys, fieldByKey } from '../../../../domain/catalogue';
import { CORRECTION_REASON_MAX } from '../../../../domain/corrections';
import { staffRoleCovers } from '../../../../domain/staff';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Select } from '../../../ui/Select';
import { useCorrectAnswer } from './api/corrections';
import { whenText } from '../paths';
import { useStaffMe } from '../session/SignedInConsole';

type StaffApplication = components['schemas']['StaffApplication'];

const documents = new Set(documentKeys);
/** Questions the office may correct: every answer but a document and a choice's label. */
const QUESTIONS = allFields.filter((field) => !documents.has(field.key)).map((field) => ({ value: field.key, label: `${field.label} (${field.key})` }));
const shown = (value: string | number | boolean | null) => (value === null || value === '' ? '(no answer)' : String(value));

/** The office's corrections of a submitted application: their history for everyone, a new one for deciders. */
export function CorrectionsPanel({ application }: { application: StaffApplication }) {
  const me = useStaffMe();
  const correct = useCorrectAnswer(application.id);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const errors = fieldErrorsOf(correct.error);
  const field = fieldByKey.get(key);
  const current = key ? (application.view.answer[key] ?? null) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    correct.mutate({ key, value: value === '' ? null : value, reason }, { onSuccess: () => (setValue(''), setReason('')) });
  };
  if (application.status !== 'submitted' && application.corrections.length === 0) return null;
  return (
    <section aria-labelledby="corrections-title" className="card">
      <h2 id="corrections-title">Corrections</h2>
      {application.corrections.length === 0 ? (
        <p>No answer has been corrected.</p>
      ) : (
        <ol>
          {application.corrections.map((correction) => (
            <li key={correction.id}>
              {`${correction.label}: “${shown(correction.from)}” → “${shown(correction.to)}”, by ${correction.by}, ${whenText(correction.at)}. Why: ${correction.reason}`}
            </li>
          ))}
        </ol>
      )}
      {staffRoleCovers(me.role, 'decider') && application.status === 'submitted' && (
        <form onSubmit={submit} noValidate>
          <Field id="correction-key" label="Question to correct" errors={errors.key}>
            <Select id="correction-key" value={key} options={QUESTIONS} onChange={(chosen) => (setKey(chosen), setValue(''))} />
          </Field>
          {key && <p>{`Answered now: “${shown(current)}”`}</p>}
          {key && (
            <Field id="correction-value" label="Corrected answer (empty removes it)" errors={errors.value}>
              {field?.options ? (
                <Select id="correction-value" value={value} options={[...field.options]} onChange={setValue} />
              ) : (
                <input id="correction-value" className="input input--outlined" value={value} onChange={(event) => setValue(event.target.value)} />
              )}
            </Field>
          )}
          <Field id="correction-reason" label="Why (kept with the correction)" errors={errors.reason}>
            <textarea id="correction-reason" className="input input--outlined" rows={2} maxLength={CORRECTION_REASON_MAX} value={reason} onChange={(event) => setReason(event.target.value)} />
          </Field>
          <Button type="submit" variant="secondary" loading={correct.isPending}>
            Correct the answer
          </Button>
          <MutationError error={correct.error} fields={errors} />
          <div role="status">{correct.isSuccess && 'Corrected. The answer the applicant gave is kept in the history.'}</div>
        </form>
      )}
    </section>
  );
}
