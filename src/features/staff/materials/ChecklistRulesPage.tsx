import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { CHECKLIST_LIMITS, CONDITION_QUESTIONS, DOCUMENT_QUESTIONS } from '../../../../domain/checklist';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { checklistRulesQuery, useSetChecklistRules } from './api/checklist';
import { whenText } from '../paths';

type Rules = components['schemas']['ChecklistRules'];
type From = Rules['rules'][number]['from'];

const FROM_OPTIONS: { value: From; label: string }[] = [
  { value: 'school', label: 'The school' },
  { value: 'recommender', label: 'A recommender' },
  { value: 'applicant', label: 'The applicant (uploads it after submitting)' },
  { value: 'form', label: 'The application form (an upload question)' },
];
const QUESTION_OPTIONS = CONDITION_QUESTIONS.map((question) => ({ value: question.key, label: question.label }));
const DOCUMENT_OPTIONS = DOCUMENT_QUESTIONS.map((question) => ({ value: question.key, label: question.label }));

interface ItemDraft {
  /** For React only: a new item has no key until the server gives it one. */
  id: number;
  key?: string;
  label: string;
  from: From;
  documentKey: string;
  /** One condition here ("required when <question> is <answer>"); '' for always. */
  question: string;
  equals: string;
}

function ChecklistRulesEditor({ rules, save }: { rules: Rules; save: ReturnType<typeof useSetChecklistRules> }) {
  const [items, setItems] = useState<ItemDraft[]>(() =>
    rules.rules.map((rule, index) => ({ id: index, key: rule.key, label: rule.label, from: rule.from, documentKey: rule.document_key ?? '', question: rule.when[0]?.question ?? '', equals: rule.when[0]?.equals ?? '' })),
  );
  const errors = fieldErrorsOf(save.error);
  const edit = (id: number, patch: Partial<ItemDraft>) => setItems((current) => current.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      rules: items.map((item) => ({
        ...(item.key ? { key: item.key } : {}),
        label: item.label.trim(),
        from: item.from,
        ...(item.from === 'form' ? { document_key: item.documentKey } : {}),
        when: item.question ? [{ question: item.question, equals: item.equals }] : [],
      })),
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      {errors.rules && (
        <p role="alert" className="field__error">
          {errors.rules.join(' ')}
        </p>
      )}
      {items.map((item, index) => {
        const id = `rule-${item.id}`;
        const answers = CONDITION_QUESTIONS.find((question) => question.key === item.question)?.options ?? [];
        return (
          <fieldset key={item.id} className="staff-scale">
            <legend>Item {index + 1}</legend>
            <Field id={`${id}-label`} label="Name" errors={errors[`rules.${index}.label`]}>
              <input id={`${id}-label`} className="input input--outlined" value={item.label} maxLength={200} onChange={(event) => edit(item.id, { label: event.target.value })} />
            </Field>
            <Field id={`${id}-from`} label="Sent by">
              <Select id={`${id}-from`} value={item.from} options={FROM_OPTIONS} onChange={(value) => value && edit(item.id, { from: value as From })} />
            </Field>
            {item.from === 'form' && (
              <Field id={`${id}-document`} label="Upload question" errors={errors[`rules.${index}.document_key`]}>
                <Select id={`${id}-document`} value={item.documentKey} options={DOCUMENT_OPTIONS} onChange={(value) => edit(item.id, { documentKey: value })} />
              </Field>
            )}
            <Field id={`${id}-question`} label="Required" hint="Always, or only when an answer of the form is one of its choices." errors={errors[`rules.${index}.when`]}>
              <Select id={`${id}-question`} value={item.question} options={QUESTION_OPTIONS.map((option) => ({ ...option, label: `When: ${option.label}` }))} onChange={(value) => edit(item.id, { question: value, equals: '' })} />
            </Field>
            {item.question && (
              <Field id={`${id}-equals`} label="is answered">
                <Select id={`${id}-equals`} value={item.equals} options={[...answers]} onChange={(value) => edit(item.id, { equals: value })} />
              </Field>
            )}
            <Button variant="text" onClick={() => setItems((current) => current.filter((each) => each.id !== item.id))}>
              Remove the item {item.label || index + 1}
            </Button>
          </fieldset>
        );
      })}
      <p>
        <Button
          variant="secondary"
          aria-disabled={items.length >= CHECKLIST_LIMITS.items || undefined}
          onClick={() => items.length < CHECKLIST_LIMITS.items && setItems((current) => [...current, { id: Math.max(-1, ...current.map((each) => each.id)) + 1, label: '', from: 'school', documentKey: '', question: '', equals: '' }])}
        >
          Add an item
        </Button>
      </p>
      <Button type="submit" loading={save.isPending}>
        Save the checklist
      </Button>
      <MutationError error={save.error} fields={errors} />
    </form>
  );
}

/** The checklist's rules (admin): the materials an application needs, who sends each, and when each is required. */
export function ChecklistRulesPage() {
  usePageTitle('Checklist');
  const rules = useQuery(checklistRulesQuery);
  const save = useSetChecklistRules();
  return (
    <>
      <h1>Checklist</h1>
      <p>
        The materials a submitted application needs. When an item is required only for some applicants, choose the answer that calls for it (&ldquo;Required: when Citizenship Status is answered Not a U.S. citizen or permanent resident&rdquo;).
        Saving computes every submitted application&rsquo;s checklist again; marks of items no longer asked for are kept but not shown.
      </p>
      {rules.isPending && <Loading label="Loading the checklist" />}
      {rules.isError && <p role="alert">{rules.error?.message}</p>}
      {rules.data && (
        <>
          <p className="staff-decision__by">{rules.data.version === 0 ? 'The built-in checklist.' : `Version ${rules.data.version}, by ${rules.data.updated_by}, ${whenText(rules.data.updated_at!)}.`}</p>
          {/* A saved version starts the editor again from what was kept. */}
          <ChecklistRulesEditor key={rules.data.version} rules={rules.data} save={save} />
        </>
      )}
      <div role="status">{save.isSuccess && `Saved as version ${save.data.version}: every submitted application’s checklist is being computed again.`}</div>
    </>
  );
}
