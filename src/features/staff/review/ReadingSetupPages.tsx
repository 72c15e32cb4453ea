import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { describedBy, Field, invalid } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { binsQuery, reviewFormQuery, useSetBins, useSetReviewForm } from './api/review';
import { whenText } from '../paths';

type ReviewForm = components['schemas']['ReviewForm'];
type Bin = components['schemas']['Bin'];

/** One entry a line, blank lines left out. */
const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

interface ScaleDraft {
  /** A key for React only: scales have no id, and a name can be edited. */
  key: number;
  name: string;
  labels: string;
}

function ReviewFormEditor({ form, save }: { form: ReviewForm; save: ReturnType<typeof useSetReviewForm> }) {
  const [scales, setScales] = useState<ScaleDraft[]>(() => form.scales.map((scale, index) => ({ key: index, name: scale.name, labels: scale.labels.join('\n') })));
  const [recommendations, setRecommendations] = useState(form.recommendations.join('\n'));
  const errors = fieldErrorsOf(save.error);
  const edit = (key: number, patch: Partial<ScaleDraft>) => setScales((current) => current.map((scale) => (scale.key === key ? { ...scale, ...patch } : scale)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ scales: scales.map((scale) => ({ name: scale.name.trim(), labels: lines(scale.labels) })), recommendations: lines(recommendations) });
  };
  const LABELS_HINT = 'One point a line, lowest first (2 to 10).';
  return (
    <form onSubmit={submit} noValidate>
      {errors.scales && (
        <p role="alert" className="field__error">
          {errors.scales.join(' ')}
        </p>
      )}
      {scales.map((scale, index) => (
        <fieldset key={scale.key} className="staff-scale">
          <legend>Rating scale {index + 1}</legend>
          <Field id={`scale-${scale.key}-name`} label="Name">
            <input id={`scale-${scale.key}-name`} className="input input--outlined" value={scale.name} maxLength={60} onChange={(event) => edit(scale.key, { name: event.target.value })} />
          </Field>
          <Field id={`scale-${scale.key}-labels`} label="Points" hint={LABELS_HINT}>
            <textarea
              id={`scale-${scale.key}-labels`}
              className="input input--outlined"
              rows={4}
              value={scale.labels}
              onChange={(event) => edit(scale.key, { labels: event.target.value })}
              aria-describedby={describedBy({ id: `scale-${scale.key}-labels`, hint: LABELS_HINT })}
            />
          </Field>
          <Button variant="text" onClick={() => setScales((current) => current.filter((s) => s.key !== scale.key))}>
            Remove the scale {scale.name || index + 1}
          </Button>
        </fieldset>
      ))}
      <p>
        <Button variant="secondary" aria-disabled={scales.length >= 12 || undefined} onClick={() => scales.length < 12 && setScales((current) => [...current, { key: Math.max(-1, ...current.map((s) => s.key)) + 1, name: '', labels: '' }])}>
          Add a rating scale
        </Button>
      </p>
      <Field id="recommendations" label="Recommendations" hint="One a line, e.g. Admit, Waitlist, Deny." errors={errors.recommendations}>
        <textarea
          id="recommendations"
          className="input input--outlined"
          rows={4}
          value={recommendations}
          onChange={(event) => setRecommendations(event.target.value)}
          aria-invalid={invalid(errors.recommendations)}
          aria-describedby={describedBy({ id: 'recommendations', hint: 'x', errors: errors.recommendations })}
        />
      </Field>
      <Button type="submit" loading={save.isPending}>
        Save the review form
      </Button>
      {save.isError && !errors.scales && !errors.recommendations && <p role="alert">{save.error.message}</p>}
    </form>
  );
}

/** The cycle's review form (admin): named rating scales, the recommendations and a comment. */
export function ReviewFormPage() {
  usePageTitle('Review form');
  const form = useQuery(reviewFormQuery);
  // Here, not in the editor: a saved version starts the editor again, and the word that it was saved stays.
  const save = useSetReviewForm();
  return (
    <>
      <h1>Review form</h1>
      <p>What every reader fills in for each application they read: a point on each rating scale, a recommendation, and a comment if they like.</p>
      {form.isPending && <Loading label="Loading the review form" />}
      {form.isError && <p role="alert">{form.error?.message}</p>}
      {form.data && (
        <>
          <p className="staff-decision__by">{form.data.version === 0 ? 'The built-in form.' : `Version ${form.data.version}, by ${form.data.updated_by}, ${whenText(form.data.updated_at)}.`}</p>
          {/* A saved version starts the editor again from what was kept. */}
          <ReviewFormEditor key={form.data.version} form={form.data} save={save} />
        </>
      )}
      <div role="status">{save.isSuccess && `Saved as version ${save.data.version}: reviews from now on are written on it; those signed keep theirs.`}</div>
    </>
  );
}

interface BinDraft {
  key: string;
  id?: number;
  name: string;
  blind: boolean;
  receivesComplete: boolean;
  count: number;
}

function BinsEditor({ bins, save }: { bins: readonly Bin[]; save: ReturnType<typeof useSetBins> }) {
  const [drafts, setDrafts] = useState<BinDraft[]>(() => bins.map((bin) => ({ key: `bin-${bin.id}`, id: bin.id, name: bin.name, blind: bin.blind, receivesComplete: bin.receives_complete, count: bin.count })));
  const [added, setAdded] = useState(0);
  const edit = (key: string, patch: Partial<BinDraft>) => setDrafts((current) => current.map((bin) => (bin.key === key ? { ...bin, ...patch } : bin)));
  const moveUp = (index: number) => setDrafts((current) => [...current.slice(0, index - 1), current[index]!, current[index - 1]!, ...current.slice(index + 1)]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ bins: drafts.map((bin) => ({ ...(bin.id ? { id: bin.id } : {}), name: bin.name.trim(), blind: bin.blind, receives_complete: bin.receivesComplete })) });
  };
  return (
    <form onSubmit={submit} noValidate>
      <ol className="staff-bins">
        {drafts.map((bin, index) => (
          <li key={bin.key}>
            <Field id={`${bin.key}-name`} label={`Bin ${index + 1}${bin.id ? ` (${bin.count.toLocaleString('en-US')} now)` : ' (new)'}`}>
              <input id={`${bin.key}-name`} className="input input--outlined" value={bin.name} maxLength={60} onChange={(event) => edit(bin.key, { name: event.target.value })} />
            </Field>
            <Checkbox id={`${bin.key}-blind`} label="Read blind" checked={bin.blind} onChange={(blind) => edit(bin.key, { blind })} />
            {/* One bin at most: choosing this one unchooses the others. */}
            <Checkbox
              id={`${bin.key}-complete`}
              label="Complete applications arrive here"
              checked={bin.receivesComplete}
              onChange={(chosen) => setDrafts((current) => current.map((each) => ({ ...each, receivesComplete: each.key === bin.key ? chosen : chosen ? false : each.receivesComplete })))}
            />
            <span className="staff-bins__actions">
              {index > 0 && (
                <Button variant="text" onClick={() => moveUp(index)} aria-label={`Move up: ${bin.name || `bin ${index + 1}`}`}>
                  Move up
                </Button>
              )}
              <Button variant="text" onClick={() => setDrafts((current) => current.filter((b) => b.key !== bin.key))} aria-label={`Remove: ${bin.name || `bin ${index + 1}`}`}>
                Remove
              </Button>
            </span>
          </li>
        ))}
      </ol>
      <p>
        <Button
          variant="secondary"
          onClick={() => {
            setDrafts((current) => [...current, { key: `new-${added}`, name: '', blind: false, receivesComplete: false, count: 0 }]);
            setAdded(added + 1);
          }}
        >
          Add a bin
        </Button>{' '}
        <Button type="submit" loading={save.isPending}>
          Save the bins
        </Button>
      </p>
      <MutationError error={save.error} />
    </form>
  );
}

/** The workflow's bins (admin): named stages in order, each read blind or not. */
export function BinsPage() {
  usePageTitle('Bins');
  const bins = useQuery(binsQuery);
  const save = useSetBins();
  return (
    <>
      <h1>Bins</h1>
      <p>
        The stages applications move through, in order. In a bin read blind, a reader sees the other reviews only once theirs is in. An application whose checklist becomes complete moves to the bin
        complete applications arrive in, unless it is already in a later one. A bin that holds applications cannot be removed.
      </p>
      {bins.isPending && <Loading label="Loading the bins" />}
      {bins.isError && <p role="alert">{bins.error?.message}</p>}
      {/* The bins as saved start the editor again. */}
      {bins.data && <BinsEditor key={bins.data.bins.map((b) => `${b.id}:${b.name}:${b.blind}:${b.receives_complete}`).join('|')} bins={bins.data.bins} save={save} />}
      <div role="status">{save.isSuccess && 'Saved.'}</div>
    </>
  );
}
