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
import { retentionQuery, useSetRetention } from './api/records';
import { whenText } from '../paths';

type Retention = components['schemas']['Retention'];
const TERMS = [...(fieldByKey.get('entry_term')?.options ?? [])];

function RetentionEditor({ retention }: { retention: Retention }) {
  const save = useSetRetention();
  const [rules, setRules] = useState(() => retention.rules.map((rule, id) => ({ id, ...rule })));
  const errors = fieldErrorsOf(save.error);
  const edit = (id: number, patch: Partial<(typeof rules)[number]>) => setRules((current) => current.map((rule) => (rule.id === id ? { ...rule, ...patch } : rule)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(rules.filter((rule) => rule.term).map(({ term, delete_after }) => ({ term, delete_after })));
  };
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
      <MutationError error={save.error} fields={errors} />
      <div role="status">{save.isSuccess && 'Saved. What the next erasure will take is below.'}</div>
    </form>
  );
}

/** How long each cycle's applications are kept (admin), and the dry run of what is due. */
export function RetentionPage() {
  usePageTitle('Retention');
  const retention = useQuery(retentionQuery);
  return (
    <>
      <h1>Retention</h1>
      <p>
        For each entry term, the day from which its applications are erased: the account, answers, documents, PDF copies, decisions and reviews, as a person’s erasure is. The portal looks each
        hour; every application erased is in the audit log. Set a date, save, and check what is due before that day comes.
      </p>
      {retention.isPending && <Loading label="Loading the retention rules" />}
      {retention.isError && <p role="alert">{retention.error?.message}</p>}
      {retention.data && (
        <>
          {retention.data.updated_by && <p className="staff-decision__by">{`Set by ${retention.data.updated_by}, ${whenText(retention.data.updated_at)}.`}</p>}
          <RetentionEditor key={retention.data.updated_at ?? 'none'} retention={retention.data} />
          <h2>Due now (the dry run)</h2>
          {retention.data.due.length === 0 ? (
            <p>Nothing is due: no cycle has passed its date.</p>
          ) : (
            <DataTable
              label="Due now"
              rows={retention.data.due}
              rowKey={(due) => due.term}
              columns={[
                { key: 'term', header: 'Entry term', rowHeader: true, cell: (due) => due.term },
                { key: 'applications', header: 'Applications', cell: (due) => due.applications.toLocaleString('en-US') },
                { key: 'files', header: 'Files', cell: (due) => due.files.toLocaleString('en-US') },
              ]}
            />
          )}
        </>
      )}
    </>
  );
}
