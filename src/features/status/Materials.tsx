import { MutationError } from '../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../generated/api';
import { invitationErrors, ROLE_NAMES, type RecommenderRole } from '../../../domain/recommenders';
import { fieldErrorsOf } from '../../lib/api/errors';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { describedBy, Field, invalid } from '../../ui/Field';
import { FileChooser } from '../../ui/FileChooser';
import { RadioGroup } from '../../ui/RadioGroup';
import { letterUrl, myChecklistQuery, myRecommendersQuery, useInviteRecommender, useResendRecommender, useSendMyMaterial, useSetMyReminders, useWithdrawRecommender } from './api/materials';

type Recommender = components['schemas']['Recommender'];
type Item = components['schemas']['ApplicantChecklist']['items'][number];

const longDate = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(iso));
const STATUS_TEXT: Record<Item['status'], string> = { awaiting: 'Still awaited', received: 'Received', waived: 'Not needed' };
const FROM_TEXT: Record<Item['from'], string> = { school: 'Sent by your school.', recommender: 'Sent by your recommenders (below).', applicant: 'Sent by you.', form: 'From your application.' };
const FILE_TEXT = { unprocessed: 'being converted', in_progress: 'being converted', completed: 'received', failed: 'could not be converted' } as const;
const ROLE_OPTIONS = (Object.keys(ROLE_NAMES) as RecommenderRole[]).map((role) => ({ value: role, label: ROLE_NAMES[role] }));

function stateOf(recommender: Recommender): string {
  if (recommender.status === 'submitted') return `Sent their recommendation on ${longDate(recommender.submitted_at!)}`;
  if (recommender.status === 'opened') return `Opened your request on ${longDate(recommender.opened_at!)}`;
  return `Asked on ${longDate(recommender.sent_at)}; not opened yet`;
}

/** An item I may send myself: my files for it, and a file input. */
function MyItemFiles({ item }: { item: Item }) {
  const send = useSendMyMaterial();
  return (
    <>
      {item.files.length > 0 && (
        <ul aria-label={`Files you sent for ${item.label}`}>
          {item.files.map((file, index) => (
            <li key={`${file.file_name}-${index}`}>
              {file.file_name}: {FILE_TEXT[file.status]}
              {file.message ? ` (${file.message})` : ''}
            </li>
          ))}
        </ul>
      )}
      <FileChooser
        id={`send-${item.key}`}
        label={`Send a file for ${item.label} (PDF, DOCX, PNG or JPEG)`}
        pending={send.isPending}
        error={send.isError ? send.error.message : null}
        onFile={(file, contentType) => send.mutate({ key: item.key, file, contentType })}
      />
    </>
  );
}

/** The weekly reminder, on while something is awaited unless switched off here. */
function ReminderSwitch({ enabled }: { enabled: boolean }) {
  const set = useSetMyReminders();
  return (
    <>
      <Checkbox id="material-reminders" label="E-mail me once a week about what is still awaited" checked={set.isPending ? set.variables : enabled} onChange={(checked) => set.mutate(checked)} />
      <MutationError error={set.error} />
    </>
  );
}

/** What the application still needs (issue 31): each item's state, and an upload for those I send myself. */
function MyChecklist() {
  const checklist = useQuery(myChecklistQuery);
  if (!checklist.data) return checklist.isError ? <p role="alert">{checklist.error?.message}</p> : null;
  const { items, complete, reminders } = checklist.data;
  return (
    <section aria-labelledby="materials-title" className="status__materials">
      <h2 id="materials-title">Your materials</h2>
      <p>{complete ? 'We have everything we need to read your application.' : `${items.filter((item) => item.status === 'awaiting').length} of ${items.length} still awaited. Your answers cannot change now, but these can still arrive.`}</p>
      <ul className="status__checklist">
        {items.map((item) => (
          <li key={item.key}>
            <strong>{item.label}</strong>: {STATUS_TEXT[item.status]}. {FROM_TEXT[item.from]}
            {item.from === 'applicant' && <MyItemFiles item={item} />}
          </li>
        ))}
      </ul>
      {!complete && <ReminderSwitch enabled={reminders} />}
    </section>
  );
}

/** Said of a request asked under the other answer than the one now given: the letter follows what its recommender was told. */
const ASKED_UNDER = {
  waived: 'Asked while you waived your right to see it: its letter is not shown to you.',
  notWaived: 'Asked before you waived your right to see it: you can read its letter.',
} as const;

function RecommenderRow({ recommender, waivedNow }: { recommender: Recommender; waivedNow: boolean }) {
  const resend = useResendRecommender();
  const withdraw = useWithdrawRecommender();
  const [confirming, setConfirming] = useState(false);
  const failed = resend.error ?? withdraw.error;
  return (
    <li>
      <strong>{recommender.name}</strong> ({ROLE_NAMES[recommender.role]}, {recommender.email}): {stateOf(recommender)}.
      {recommender.waived !== waivedNow && ` ${recommender.waived ? ASKED_UNDER.waived : ASKED_UNDER.notWaived}`}
      {recommender.letter && (
        <>
          {' '}
          <a href={letterUrl(recommender.id)} download>
            Read {recommender.name}’s letter (PDF)
          </a>
        </>
      )}
      {recommender.status !== 'submitted' && (
        <span className="status__actions">
          <Button variant="text" loading={resend.isPending} onClick={() => resend.mutate(recommender.id)} aria-label={`Send again: the request to ${recommender.name}`}>
            Send again
          </Button>
          {!confirming ? (
            <Button variant="text" onClick={() => setConfirming(true)} aria-label={`Withdraw the request to ${recommender.name}`}>
              Withdraw
            </Button>
          ) : (
            <>
              <Button variant="secondary" loading={withdraw.isPending} onClick={() => withdraw.mutate(recommender.id)}>
                Yes, withdraw the request to {recommender.name}
              </Button>
              <Button variant="text" onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </>
          )}
        </span>
      )}
      {resend.isSuccess && <span role="status"> Sent again: the link in the earlier e-mail no longer works.</span>}
      {failed && <span role="alert"> {failed.message}</span>}
    </li>
  );
}

/** Ask a counselor or a teacher: what was typed stays when the server refuses it. */
function InviteForm() {
  const invite = useInviteRecommender();
  const [role, setRole] = useState<RecommenderRole | undefined>();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  // Checked here first once sent (the server checks again, and refuses the applicant's own address).
  const [tried, setTried] = useState(false);
  const local = tried ? invitationErrors({ role, name, email }, '') : {};
  const server = fieldErrorsOf(invite.error);
  const fieldErrors = Object.keys(local).length ? local : server;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(invitationErrors({ role, name, email }, '')).length) return;
    invite.mutate(
      { role: role!, name, email },
      {
        onSuccess: () => {
          setTried(false);
          setRole(undefined);
          setName('');
          setEmail('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="invite-title">
      <h3 id="invite-title">Ask for a recommendation</h3>
      <RadioGroup id="invite-role" legend="They are your" options={ROLE_OPTIONS} value={role} errors={fieldErrors?.role} onChange={(value) => setRole(value as RecommenderRole)} />
      <Field id="invite-name" label="Their name" errors={fieldErrors?.name}>
        <input id="invite-name" className="input input--outlined" value={name} maxLength={120} autoComplete="off" onChange={(event) => setName(event.target.value)} aria-invalid={invalid(fieldErrors?.name)} aria-describedby={describedBy({ id: 'invite-name', errors: fieldErrors?.name })} />
      </Field>
      <Field id="invite-email" label="Their e-mail address" errors={fieldErrors?.email}>
        <input id="invite-email" className="input input--outlined" type="email" value={email} maxLength={254} autoComplete="off" onChange={(event) => setEmail(event.target.value)} aria-invalid={invalid(fieldErrors?.email)} aria-describedby={describedBy({ id: 'invite-email', errors: fieldErrors?.email })} />
      </Field>
      <Button type="submit" loading={invite.isPending}>
        Send the request
      </Button>
      <MutationError error={invite.error} fields={fieldErrors} />
      <div role="status">{invite.isSuccess && `Asked ${invite.data.name}: they have been e-mailed a link of their own.`}</div>
    </form>
  );
}

/** The recommenders I asked (issue 31), where each stands, and the form to ask another (on Final Steps and the status page). */
export function MyRecommenders() {
  const list = useQuery(myRecommendersQuery);
  if (!list.data) return list.isError ? <p role="alert">{list.error?.message}</p> : null;
  const { waived, recommenders } = list.data;
  return (
    <section aria-labelledby="recommenders-title" className="status__materials">
      <h2 id="recommenders-title">Recommendations</h2>
      <p>
        {waived
          ? 'You waived your right to see your recommendations: their letters are not shown to you, and your recommenders are told so.'
          : 'You have not waived your right to see your recommendations: you can read each letter once it arrives, and your recommenders are told so.'}{' '}
        You can ask one school counselor and up to two teachers.
      </p>
      {recommenders.length > 0 && (
        <ul className="status__recommenders">
          {recommenders.map((recommender) => (
            <RecommenderRow key={recommender.id} recommender={recommender} waivedNow={waived} />
          ))}
        </ul>
      )}
      <InviteForm />
    </section>
  );
}

/** After submission: the materials still needed and the recommenders asked (the completion page's). */
export function ApplicantMaterials() {
  return (
    <>
      <MyChecklist />
      <MyRecommenders />
    </>
  );
}
