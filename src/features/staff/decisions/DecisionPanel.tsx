import { MutationError } from '../../../ui/MutationError';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { DECISION_NAMES, DECISIONS, type Decision } from '../../../../domain/decisions';
import { staffRoleCovers } from '../../../../domain/staff';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { RadioGroup } from '../../../ui/RadioGroup';
import { letterPreviewQuery, useRecordReply, useSetDecision } from './api/decisions';
import { Loading } from '../../../ui/Loading';
import { useQuery } from '@tanstack/react-query';
import { whenText } from '../paths';
import { useStaffMe } from '../session/SignedInConsole';

type StaffDecision = components['schemas']['StaffDecision'];

const OPTIONS = DECISIONS.map((value) => ({ value, label: DECISION_NAMES[value] }));
const REPLY_TEXT = { accept: 'accepted the offer', decline: 'declined the offer' } as const;

/** What the decision's state means, in a sentence. */
function stateText(decision: StaffDecision): string {
  const name = DECISION_NAMES[decision.decision];
  if (decision.state === 'provisional') return `${name}, provisional: the applicant does not see it until it is released.`;
  if (decision.state === 'scheduled') return `${name}, to be released ${whenText(decision.release_at)}.`;
  return `${name}, released ${whenText(decision.release_at)}: the applicant sees it.`;
}

/** The letter this applicant would read for the decision chosen, shown when the decider asks (each look is audited). */
function LetterPreview({ applicationId, decision }: { applicationId: string; decision: Decision | undefined }) {
  const [asked, setAsked] = useState<Decision | null>(null);
  const preview = useQuery({ ...letterPreviewQuery(applicationId, asked ?? 'admit'), enabled: asked !== null });
  return (
    <div className="staff-decision__preview">
      <Button variant="text" aria-disabled={!decision || undefined} onClick={() => decision && setAsked(decision)}>
        Preview the letter{decision ? ` (${DECISION_NAMES[decision]})` : ''}
      </Button>
      {asked && preview.isPending && <Loading label="Loading the letter" />}
      {asked && preview.isError && <p role="alert">{preview.error?.message}</p>}
      {asked && preview.data && (
        <article aria-label={`${DECISION_NAMES[asked]} letter to this applicant`} className="staff-decision__letter">
          {preview.data.letter}
        </article>
      )}
    </div>
  );
}

/** A reason asked with a change and kept with it (a released decision changed, a reply recorded); the field ties its hint and errors to it. */
function ReasonField({ id, label, hint, value, onChange, errors }: { id: string; label: string; hint: string; value: string; onChange: (value: string) => void; errors?: string[] }) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      <textarea id={id} className="input input--outlined" value={value} onChange={(event) => onChange(event.target.value)} maxLength={2000} rows={2} />
    </Field>
  );
}

const REPLY_OPTIONS = [
  { value: 'accept', label: 'Accepted' },
  { value: 'decline', label: 'Declined' },
  { value: 'none', label: 'No reply yet' },
];

/** A reply the applicant gave another way, or one to correct (issue 51 §2): with the reason, shown with it and audited. */
function RecordReply({ applicationId, decision }: { applicationId: string; decision: StaffDecision }) {
  const [reply, setReply] = useState(decision.reply ?? 'none');
  const [reason, setReason] = useState('');
  const record = useRecordReply(applicationId);
  const errors = fieldErrorsOf(record.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate({ reply: reply === 'none' ? null : (reply as 'accept' | 'decline'), reason });
  };
  return (
    <details className="staff-decision__reply">
      <summary>Record or correct the reply</summary>
      <form onSubmit={submit} noValidate>
        <RadioGroup id="reply-record" legend="The applicant’s reply" options={REPLY_OPTIONS} value={reply} onChange={setReply} />
        <ReasonField id="reply-reason" label="Why it is recorded here" hint="A phone call, a letter, a reply sent by mistake: kept with the reply." value={reason} onChange={setReason} errors={errors?.reason} />
        <Button type="submit" variant="secondary" loading={record.isPending}>
          Record the reply
        </Button>
        <MutationError error={record.error} fields={errors} />
        <div role="status">{record.isSuccess && 'Reply recorded.'}</div>
      </form>
    </details>
  );
}

/** The decision on one application: its state for everyone, and for deciders the form to record or change it. */
export function DecisionPanel({ applicationId, submitted, decision }: { applicationId: string; submitted: boolean; decision: StaffDecision | null }) {
  const me = useStaffMe();
  const decider = staffRoleCovers(me.role, 'decider');
  const [chosen, setChosen] = useState<Decision | undefined>(decision?.decision);
  const [reason, setReason] = useState('');
  const save = useSetDecision(applicationId);
  const released = decision?.state === 'released';
  const errors = fieldErrorsOf(save.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    save.mutate({ decision: chosen, ...(released ? { reason } : {}) }, { onSuccess: () => setReason('') });
  };

  return (
    <section aria-labelledby="decision-title" className="staff-decision">
      <h2 id="decision-title">Decision</h2>
      <p>{decision ? stateText(decision) : 'No decision yet.'}</p>
      {decision && (
        <p className="staff-decision__by">
          Recorded by {decision.decided_by}, {whenText(decision.decided_at)}.
          {decision.reason && ` Last change: ${decision.reason}`}
          {decision.reply && ` The applicant ${REPLY_TEXT[decision.reply]} on ${whenText(decision.replied_at)}.`}
          {decision.reply_recorded_by && ` Recorded by ${decision.reply_recorded_by}: ${decision.reply_reason}`}
        </p>
      )}
      {decider && decision?.decision === 'admit' && decision.state === 'released' && <RecordReply key={`${decision.reply}|${decision.reply_reason}`} applicationId={applicationId} decision={decision} />}
      {decider && submitted && (
        <form onSubmit={submit} noValidate>
          <RadioGroup id="decision-choice" legend={decision ? 'Change the decision' : 'Record a decision'} options={OPTIONS} value={chosen} onChange={(value) => setChosen(value as Decision)} />
          {released && (
            <ReasonField id="decision-reason" label="Why it changes" hint="Released: the applicant sees the new decision at once and gets a notice." value={reason} onChange={setReason} errors={errors?.reason} />
          )}
          <Button type="submit" variant="secondary" loading={save.isPending} aria-disabled={!chosen || undefined}>
            {released ? 'Change the released decision' : 'Save the decision'}
          </Button>
          <MutationError error={save.error} fields={errors} />
        </form>
      )}
      {decider && submitted && <LetterPreview applicationId={applicationId} decision={chosen} />}
    </section>
  );
}
