import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { DECISION_NAMES, LETTER_FIELDS, LETTER_MAX_CHARS } from '../../../../domain/decisions';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { describedBy, Field, invalid } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { letterTemplatesQuery, useSetLetterTemplate } from './api/decisions';
import { whenText } from '../paths';
import { useStaffMe } from '../session/SignedInConsole';

type LetterTemplate = components['schemas']['LetterTemplate'];
const FIELDS_HINT = `Merge fields: ${LETTER_FIELDS.map((name) => `{${name}}`).join(', ')}. A blank line starts a paragraph.`;

/** One decision's letter: the text an admin edits (a decider reads it), saved or put back to the built-in one. */
function LetterForm({ template, editable }: { template: LetterTemplate; editable: boolean }) {
  const [body, setBody] = useState(template.body);
  const save = useSetLetterTemplate();
  const id = `letter-${template.decision}`;
  const errors = fieldErrorsOf(save.error).body;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ decision: template.decision, body });
  };
  const title = `${DECISION_NAMES[template.decision]} letter`;
  return (
    <section aria-labelledby={`${id}-title`} className="staff-letter">
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="staff-decision__by">{template.built_in ? 'The built-in letter.' : `Written by ${template.updated_by}, ${whenText(template.updated_at)}.`}</p>
      {editable ? (
        <form onSubmit={submit} noValidate>
          <Field id={id} label={`Text of the ${title.toLowerCase()}`} hint={FIELDS_HINT} errors={errors}>
            <textarea
              id={id}
              className="input input--outlined"
              value={body}
              onChange={(event) => setBody(event.target.value)}
              maxLength={LETTER_MAX_CHARS}
              rows={10}
              aria-invalid={invalid(errors)}
              aria-describedby={describedBy({ id, hint: FIELDS_HINT, errors })}
            />
          </Field>
          <p className="staff-letter__actions">
            <Button type="submit" variant="secondary" loading={save.isPending}>
              Save the {title.toLowerCase()}
            </Button>
            {!template.built_in && (
              <Button
                variant="text"
                loading={save.isPending}
                onClick={() => save.mutate({ decision: template.decision, body: '', built_in: true }, { onSuccess: (kept) => setBody(kept.body) })}
              >
                Use the built-in letter
              </Button>
            )}
          </p>
          <div role="status">{save.isSuccess && 'Saved: every letter read from now on uses it, released ones included.'}</div>
          {save.isError && !errors && <p role="alert">{save.error.message}</p>}
        </form>
      ) : (
        <p className="staff-letter__text">{template.body}</p>
      )}
    </section>
  );
}

/** The letter of each decision: administrators write them, deciders read them (and preview them per applicant). */
export function LettersPage() {
  usePageTitle('Letters');
  const me = useStaffMe();
  const templates = useQuery(letterTemplatesQuery);
  return (
    <>
      <h1>Letters</h1>
      <p>What an applicant reads with their decision, their answers merged in. Preview one applicant’s on their application.</p>
      {templates.isPending && <Loading label="Loading the letters" />}
      {templates.isError && <p role="alert">{templates.error?.message}</p>}
      {templates.data?.map((template) => <LetterForm key={template.decision} template={template} editable={me.role === 'admin'} />)}
    </>
  );
}
