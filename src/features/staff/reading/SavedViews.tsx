import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { Field } from '../../../ui/Field';
import { MutationError } from '../../../ui/MutationError';
import { savedViewsQuery, useCreateSavedView, useDeleteSavedView } from '../review/api/review';
import type { useListColumns } from './ListColumns';
import { savedViewMessages } from '../../../../domain/savedViews';

/** The list's address a view keeps: not where the member is in it (its page, the row to return to) nor the view's own id. */
const listQueryOf = (params: URLSearchParams) => {
  const kept = new URLSearchParams(params);
  for (const key of ['page', 'at', 'view']) kept.delete(key);
  return kept.toString();
};

/**
 * Saved views (issue 51 §1): open one (its filters, score, order and columns), save the list as it
 * is under a name, for me or shared with the office, and remove one of mine.
 */
export function SavedViews({ params, onOpen, columns }: { params: URLSearchParams; onOpen: (query: string, view: number) => void; columns: ReturnType<typeof useListColumns> }) {
  const views = useQuery(savedViewsQuery);
  const create = useCreateSavedView();
  const remove = useDeleteSavedView();
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const opened = views.data?.views.find((view) => String(view.id) === params.get('view'));
  // A name left empty is said here, before sending.
  const [unnamed, setUnnamed] = useState(false);
  const errors = unnamed ? { name: [savedViewMessages.nameRequired] } : fieldErrorsOf(create.error);

  const open = (id: string) => {
    const view = views.data?.views.find((each) => String(each.id) === id);
    if (!view) return;
    columns.showOnly(view.columns);
    onOpen(view.query, view.id);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    setUnnamed(!name.trim());
    if (!name.trim()) return;
    create.mutate(
      { name, query: listQueryOf(params), columns: columns.shownKeys(), shared },
      {
        onSuccess: (view) => {
          setSaving(false);
          setName('');
          onOpen(view.query, view.id);
        },
      },
    );
  };
  return (
    <div className="staff-views">
      <label htmlFor="staff-view">
        View{' '}
        <select id="staff-view" className="input input--outlined" value={opened ? String(opened.id) : ''} onChange={(event) => open(event.target.value)}>
          <option value="">{views.data?.views.length ? 'Choose a saved view' : 'No saved views yet'}</option>
          {views.data?.views.map((view) => (
            <option key={view.id} value={String(view.id)}>
              {view.mine ? view.name : `${view.name} (shared by ${view.owner_email})`}
            </option>
          ))}
        </select>
      </label>
      {opened?.mine && (
        <Button variant="text" loading={remove.isPending} onClick={() => remove.mutate(opened.id, { onSuccess: () => onOpen(listQueryOf(params), 0) })}>
          Remove this view
        </Button>
      )}
      {!saving && (
        <Button variant="secondary" onClick={() => setSaving(true)}>
          Save this view
        </Button>
      )}
      {saving && (
        <form className="staff-views__save" aria-label="Save this view" onSubmit={save} noValidate>
          <Field id="staff-view-name" label="Name" errors={errors.name}>
            <input id="staff-view-name" className="input input--outlined" value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Checkbox id="staff-view-shared" label="Share with the office" checked={shared} onChange={setShared} />
          <Button type="submit" loading={create.isPending}>
            Save
          </Button>
          <Button variant="text" onClick={() => setSaving(false)}>
            Cancel
          </Button>
          {!errors.name && <MutationError error={create.error} />}
        </form>
      )}
      <MutationError error={remove.error} />
    </div>
  );
}
