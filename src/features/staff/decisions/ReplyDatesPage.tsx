import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { replyDateText } from '../../../../domain/decisions';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { MutationError } from '../../../ui/MutationError';
import { replyDatesQuery, useSetReplyDates } from './api/decisions';
import { whenText } from '../paths';

type ReplyDates = components['schemas']['ReplyDates'];

function ReplyDatesEditor({ dates, save }: { dates: ReplyDates; save: ReturnType<typeof useSetReplyDates> }) {
  const [terms, setTerms] = useState(() => dates.terms.map((term) => ({ ...term, deposit: term.deposit ?? '' })));
  const edit = (index: number, patch: Partial<(typeof terms)[number]>) => setTerms((current) => current.map((term, at) => (at === index ? { ...term, ...patch } : term)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ terms: terms.map((term) => ({ entry_term: term.entry_term, reply_by: term.reply_by, deposit: term.deposit.trim() || null })) });
  };
  return (
    <form onSubmit={submit} noValidate>
      {terms.map((term, index) => (
        <fieldset key={term.entry_term} className="staff-scale">
          <legend>{term.entry_term}</legend>
          <Field id={`reply-by-${index}`} label="Reply by" hint={term.built_in ? `The built-in date, ${replyDateText(term.reply_by)}.` : undefined}>
            <input id={`reply-by-${index}`} className="input input--outlined" type="date" required value={term.reply_by} onChange={(event) => event.target.value && edit(index, { reply_by: event.target.value })} />
          </Field>
          <Field id={`deposit-${index}`} label="Deposit line (optional)" hint="Shown with the offer, e.g. the deposit and where to pay it.">
            <input id={`deposit-${index}`} className="input input--outlined" value={term.deposit} maxLength={500} onChange={(event) => edit(index, { deposit: event.target.value })} />
          </Field>
        </fieldset>
      ))}
      <Button type="submit" loading={save.isPending}>
        Save the reply dates
      </Button>
      <MutationError error={save.error} />
    </form>
  );
}

/** Each entry term's reply date and deposit line (admin; issue 51 §2): the date an admit's letter and status page give. */
export function ReplyDatesPage() {
  usePageTitle('Reply dates');
  const dates = useQuery(replyDatesQuery);
  const save = useSetReplyDates();
  return (
    <>
      <h1>Reply dates</h1>
      <p>
        The last day an admitted applicant can accept or decline, for each entry term, and a line shown with the offer. Letters ({'{reply_by}'}) and status pages give the applicant’s own term’s date; a
        term not set here uses May 1 of a Fall term’s year, or December 1 before a Spring term.
      </p>
      {dates.isPending && <Loading label="Loading the reply dates" />}
      {dates.isError && <p role="alert">{dates.error?.message}</p>}
      {dates.data && (
        <>
          <p className="staff-decision__by">{dates.data.updated_by ? `Set by ${dates.data.updated_by}, ${whenText(dates.data.updated_at)}.` : 'The built-in dates.'}</p>
          <ReplyDatesEditor key={dates.data.updated_at ?? 'built-in'} dates={dates.data} save={save} />
        </>
      )}
      <div role="status">{save.isSuccess && 'Saved.'}</div>
    </>
  );
}
