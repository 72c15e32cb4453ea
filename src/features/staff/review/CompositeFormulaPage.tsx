import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { NUMERIC_ANSWERS, compositeDraftErrors, scoreText, termLabel, weightOf, type CompositeSource } from '../../../../domain/scores';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { describedBy, Field, invalid } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { MutationError } from '../../../ui/MutationError';
import { Select } from '../../../ui/Select';
import { compositeFormulaQuery, reviewFormQuery, useSetCompositeFormula } from './api/review';
import { whenText } from '../paths';

type CompositeFormula = components['schemas']['CompositeFormula'];
type ReviewForm = components['schemas']['ReviewForm'];

/** The most parts a formula has (openapi.yaml CompositeFormulaDefinition). */
const TERMS_MAX = 20;

const SOURCES: { value: CompositeSource; label: string }[] = [
  { value: 'scale', label: 'A rating scale’s mean' },
  { value: 'recommendation', label: 'The share of reviews recommending' },
  { value: 'answer', label: 'A numeric answer' },
];

interface TermDraft {
  /** A key for React only: a part has no id, and what it weighs can be changed. */
  key: number;
  source: CompositeSource;
  name: string;
  weight: string;
}

/** What a source can weigh: the review form's scales or recommendations, or the numeric answers. */
const namesOf = (source: CompositeSource, form: ReviewForm) =>
  source === 'scale'
    ? form.scales.map((scale) => ({ value: scale.name, label: scale.name }))
    : source === 'recommendation'
      ? form.recommendations.map((name) => ({ value: name, label: name }))
      : Object.entries(NUMERIC_ANSWERS).map(([value, { label }]) => ({ value, label }));

/** "2 × Academics (mean rating) + 0.5 × GPA on a 4.0 scale", the parts as typed so far. */
function formulaText(terms: readonly TermDraft[]): string {
  const parts = terms.flatMap((term) => {
    const weight = weightOf(term.weight);
    return term.name && weight !== null ? [`${scoreText(weight)} × ${termLabel(term)}`] : [];
  });
  return parts.length ? `Composite score = ${parts.join(' + ')}` : 'No parts yet: no composite score.';
}

function FormulaEditor({ formula, form, save }: { formula: CompositeFormula; form: ReviewForm; save: ReturnType<typeof useSetCompositeFormula> }) {
  const [terms, setTerms] = useState<TermDraft[]>(() => formula.terms.map((term, index) => ({ key: index, source: term.source, name: term.name, weight: String(term.weight) })));
  // Faults found before sending, until the next try; the server's after that.
  const [drafted, setDrafted] = useState<Record<string, string[]>>({});
  const errors = { ...fieldErrorsOf(save.error), ...drafted };
  const edit = (key: number, patch: Partial<TermDraft>) => setTerms((current) => current.map((term) => (term.key === key ? { ...term, ...patch } : term)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const faults = compositeDraftErrors(terms);
    setDrafted(faults);
    if (Object.keys(faults).length) return;
    save.mutate({ terms: terms.map((term) => ({ source: term.source, name: term.name, weight: weightOf(term.weight)! })) });
  };
  const full = terms.length >= TERMS_MAX;
  return (
    <form onSubmit={submit} noValidate>
      {terms.map((term, index) => {
        const id = `term-${term.key}`;
        const termErrors = errors[`terms.${index}`];
        return (
          <fieldset key={term.key} className="staff-scale">
            <legend>Part {index + 1}</legend>
            {termErrors && (
              <p id={`${id}-error`} className="field__error">
                <span className="visually-hidden">Error: </span>
                {termErrors.join(' ')}
              </p>
            )}
            <Field id={`${id}-source`} label="Weighs">
              <select id={`${id}-source`} className="input input--outlined" value={term.source} onChange={(event) => edit(term.key, { source: event.target.value as CompositeSource, name: '' })}>
                {SOURCES.map((source) => (
                  <option key={source.value} value={source.value}>
                    {source.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`${id}-name`} label={term.source === 'scale' ? 'Scale' : term.source === 'recommendation' ? 'Recommendation' : 'Answer'}>
              <Select
                id={`${id}-name`}
                value={term.name}
                options={namesOf(term.source, form)}
                invalid={invalid(termErrors)}
                describedBy={termErrors ? `${id}-error` : undefined}
                onChange={(name) => edit(term.key, { name })}
              />
            </Field>
            <Field id={`${id}-weight`} label="Weight" hint="From −100 to 100; a negative weight counts against.">
              <input
                id={`${id}-weight`}
                className="input input--outlined staff-scores__weight"
                inputMode="decimal"
                value={term.weight}
                maxLength={12}
                aria-invalid={invalid(termErrors)}
                aria-describedby={describedBy({ id: `${id}-weight`, hint: 'x' }, termErrors ? `${id}-error` : undefined)}
                onChange={(event) => edit(term.key, { weight: event.target.value })}
              />
            </Field>
            <Button variant="text" onClick={() => setTerms((current) => current.filter((each) => each.key !== term.key))}>
              Remove part {index + 1}
            </Button>
          </fieldset>
        );
      })}
      <p className="staff-scores__formula" aria-live="polite">
        {formulaText(terms)}
      </p>
      <p>
        <Button
          variant="secondary"
          aria-disabled={full || undefined}
          onClick={() => !full && setTerms((current) => [...current, { key: Math.max(-1, ...current.map((term) => term.key)) + 1, source: 'scale', name: '', weight: '1' }])}
        >
          Add a part
        </Button>{' '}
        <Button type="submit" loading={save.isPending}>
          Save the formula
        </Button>
      </p>
      {!Object.keys(errors).length && <MutationError error={save.error} />}
    </form>
  );
}

/** The cycle's composite score (admin): a weighted sum of the reviews' ratings and recommendations and numeric answers. */
export function CompositeFormulaPage() {
  usePageTitle('Composite score');
  const formula = useQuery(compositeFormulaQuery);
  const form = useQuery(reviewFormQuery);
  // Here, not in the editor: a saved version starts the editor again, and the word that it was saved stays.
  const save = useSetCompositeFormula();
  return (
    <>
      <h1>Composite score</h1>
      <p>
        One number to rank reviewed applications by: the sum of each part’s weight times its value. A part is a rating scale’s mean over the reviews, the share of reviews recommending
        something (0 to 1), or a numeric answer. An application gets its score with its first review; one missing a part’s value (a scale nobody rated, no GPA) gets none, and says why.
      </p>
      {(formula.isPending || form.isPending) && <Loading label="Loading the formula" />}
      {formula.isError && <p role="alert">{formula.error?.message}</p>}
      {form.isError && <p role="alert">{form.error?.message}</p>}
      {formula.data && form.data && (
        <>
          <p className="staff-decision__by">{formula.data.version === 0 ? 'No formula yet.' : `Version ${formula.data.version}, by ${formula.data.updated_by}, ${whenText(formula.data.updated_at)}.`}</p>
          {/* A saved version starts the editor again from what was kept. */}
          <FormulaEditor key={formula.data.version} formula={formula.data} form={form.data} save={save} />
        </>
      )}
      <div role="status">{save.isSuccess && `Saved as version ${save.data.version}: every reviewed application’s composite score is being computed again.`}</div>
    </>
  );
}
