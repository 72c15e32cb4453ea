import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { describedBy, Field, invalid } from '../../../ui/Field';
import { useAddApplicationNote } from './api/applications';
import { whenText } from '../paths';

type ApplicationNote = components['schemas']['ApplicationNote'];

/** The bound of a note (openapi.yaml ApplicationNoteRequest). */
const NOTE_MAX_LENGTH = 4000;

/** The staff's notes on one application, oldest first, and a form to add one (kept as written). */
export function ApplicationNotes({ applicationId, notes }: { applicationId: string; notes: readonly ApplicationNote[] }) {
  const [text, setText] = useState('');
  const add = useAddApplicationNote(applicationId);
  const errors = fieldErrorsOf(add.error).text;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(text, { onSuccess: () => setText('') });
  };

  return (
    <section aria-labelledby="notes-title" className="staff-notes">
      <h2 id="notes-title">Notes</h2>
      {notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ol className="staff-notes__list">
          {notes.map((note) => (
            <li key={note.id}>
              <p className="staff-notes__meta">
                {note.author_email}, <time dateTime={note.created_at}>{whenText(note.created_at)}</time>
              </p>
              <p className="staff-notes__text">{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit} noValidate>
        <Field id="note-text" label="Add a note" hint="Every staff member sees it, with your name. A note cannot be changed once added." errors={errors}>
          <textarea
            id="note-text"
            className="input input--outlined"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={NOTE_MAX_LENGTH}
            rows={3}
            aria-invalid={invalid(errors)}
            aria-describedby={describedBy({ id: 'note-text', hint: 'x', errors })}
          />
        </Field>
        <Button type="submit" variant="secondary" loading={add.isPending}>
          Add the note
        </Button>
        {add.isError && !errors && <p role="alert">{add.error.message}</p>}
      </form>
    </section>
  );
}
