import { DataTable } from '../../../ui/DataTable';
import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { fieldByKey } from '../../../../domain/catalogue';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { Modal } from '../../../ui/Modal';
import { eraseToConfirm, retentionOnQuery, retentionQuery, useSetRetention } from './api/records';
import { whenText } from '../paths';

type Retention = components['schemas']['Retention'];
const TERMS = [...(fieldByKey.get('entry_term')?.options ?? [])];

type DueRow = Retention['due'][number];

/** The rules as typed; `save` is the page's, so "Saved." outlives the editor drawn again from what was saved. */
function RetentionEditor({ retention, save }: { retention: Retention; save: ReturnType<typeof useSetRetention> }) {
  const [rules, setRules] = useState(() => retention.rules.map((rule, id) => ({ id, ...rule })));
  // A save refused because it would erase at once: asked in a dialog (Cancel keeps the rules as typed).
  const [asked, setAsked] = useState(false);
  const toConfirm = eraseToConfirm(save.error);
  const errors = fieldErrorsOf(save.error);
  const edit = (id: number, patch: Partial<(typeof rules)[number]>) => setRules((current) => current.map((rule) => (rule.id === id ? { ...rule, ...patch } : rule)));
  const kept = () => rules.filter((rule) => rule.term).map(({ term, delete_after }) => ({ term, delete_after }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ rules: kept() }, { onError: (error) => setAsked(eraseToConfirm(error) !== null) });
  };
  const confirm = (applications: number) => save.mutate({ rules: kept(), erase_now: applications }, { onSettled: (_data, error) => setAsked(eraseToConfirm(error) !== null) });
  return (
    <form onSubmit={submit} noValidate>
      {errors.rules && (
        <p className="field__error">
          <span className="visually-hidden">Error: </span>
          {errors.rules.join(' ')}
        </p>
      )}
      {rules.map((rule, index) => (
        <fieldset key={rule.id} className="staff-scale">
          <legend>Cycle {index + 1}</legend>
          <Field id={`retention-${rule.id}-term`} label="Entry term">
            <Select id={`retention-${rule.id}-term`} value={rule.term} options={TERMS} onChange={(term) => edit(rule.id, { term })} />
          </Field>
          <Field id={`retention-${rule.id}-date`} label="Erase its applications from (UTC)">
            <input id={`retention-${rule.id}-date`} className="input input--outlined" type="date" value={rule.delete_after} onChange={(event) => edit(rule.id, { delete_after: event.target.value })} />
          </Field>
          <Button variant="text" onClick={() => setRules((current) => current.filter((each) => each.id !== rule.id))}>
            {`Remove the rule for ${rule.term || `cycle ${index + 1}`}`}
          </Button>
        </fieldset>
      ))}
      <p>
        <Button variant="secondary" onClick={() => setRules((current) => [...current, { id: Math.max(-1, ...current.map((rule) => rule.id)) + 1, term: '', delete_after: '' }])}>
          Add a cycle
        </Button>
      </p>
      <Button type="submit" loading={save.isPending}>
        Save and see what is due
      </Button>
      <MutationError error={toConfirm ? null : save.error} fields={errors} />
      {toConfirm && (
        <Modal
          open={asked}
          onClose={() => setAsked(false)}
          header="Erase at once?"
          size="s"
          footer={
            <>
              <Button loading={save.isPending} onClick={() => confirm(toConfirm.applications)}>
                {`Erase ${toConfirm.applications.toLocaleString('en-US')} application${toConfirm.applications === 1 ? '' : 's'} and save`}
              </Button>
              <Button variant="secondary" onClick={() => setAsked(false)}>
                Cancel
              </Button>
            </>
          }
        >
          <p>{toConfirm.message}</p>
          <p>Their accounts, answers, documents, PDF copies, decisions and reviews go for good, as a person’s erasure does. Cancel to change a date first: nothing is saved until you confirm.</p>
        </Modal>
      )}
    </form>
  );
}

/** What a dry run takes, per entry term. */
function DueTable({ due, label }: { due: DueRow[]; label: string }) {
  return (
    <DataTable
      label={label}
      rows={due}
      rowKey={(row) => row.term}
      columns={[
        { key: 'term', header: 'Entry term', rowHeader: true, cell: (row) => row.term },
        { key: 'applications', header: 'Applications', cell: (row) => row.applications.toLocaleString('en-US') },
        { key: 'files', header: 'Files', cell: (row) => row.files.toLocaleString('en-US') },
      ]}
    />
  );
}

/** The dry run of any day, the future's too: what the rules as saved would have erased by then. */
function DueOn() {
  const [day, setDay] = useState('');
  const [on, setOn] = useState('');
  const preview = useQuery({ ...retentionOnQuery(on), enabled: on !== '' });
  return (
    <section aria-labelledby="retention-on-title">
      <h2 id="retention-on-title">Due on another day</h2>
      <form
        className="staff-filters"
        onSubmit={(event) => {
          event.preventDefault();
          setOn(day);
        }}
        noValidate
      >
        <Field id="retention-on" label="Day (UTC)">
          <input id="retention-on" className="input input--outlined" type="date" value={day} onChange={(event) => setDay(event.target.value)} />
        </Field>
        <Button type="submit" variant="secondary" disabled={day === ''}>
          Show what is due that day
        </Button>
      </form>
      {preview.isFetching && <Loading label="Counting what is due" />}
      {preview.isError && <p role="alert">{preview.error?.message}</p>}
      {preview.data && !preview.isFetching && (preview.data.due.length === 0 ? <p>{`Nothing is due by ${preview.data.due_on}.`}</p> : <DueTable due={preview.data.due} label={`Due by ${preview.data.due_on}`} />)}
    </section>
  );
}

/** How long each cycle's applications are kept (admin), and the dry run of what is due. */
export function RetentionPage() {
  usePageTitle('Retention');
  const retention = useQuery(retentionQuery);
  const save = useSetRetention();
  return (
    <>
      <h1>Retention</h1>
      <p>
        For each entry term, the day from which its applications are erased: the account, answers, documents, PDF copies, decisions and reviews, as a person’s erasure is. The portal looks each
        hour; every application erased is in the audit log. Check what a date would erase before you save it: a save that erases at once asks you to confirm how many.
      </p>
      {retention.isPending && <Loading label="Loading the retention rules" />}
      {retention.isError && <p role="alert">{retention.error?.message}</p>}
      {retention.data && (
        <>
          {retention.data.updated_by && <p className="staff-decision__by">{`Set by ${retention.data.updated_by}, ${whenText(retention.data.updated_at)}.`}</p>}
          <RetentionEditor key={retention.data.updated_at ?? 'none'} retention={retention.data} save={save} />
          <div role="status">{save.isSuccess && 'Saved.'}</div>
          <h2>Due now (the dry run)</h2>
          {retention.data.due.length === 0 ? (
            <p>Nothing is due: no cycle has passed its date.</p>
          ) : (
            <DueTable due={retention.data.due} label="Due now" />
          )}
          <DueOn />
        </>
      )}
    </>
  );
}
