import { useState } from 'react';
import { fileMessages } from '../../domain/messages';
import { ACCEPT_ATTRIBUTE, checkFile, contentTypeOfName } from '../../domain/rules/files';

type UploadContentType = NonNullable<ReturnType<typeof contentTypeOfName>>;

/**
 * A file input for a material that arrives after submission (a letter, a scan): the browser's own
 * checks first (type, size, empty; the server reads the bytes again), then `onFile`. A file name
 * may be longer here than an answer's (the form's 32 characters are the applicant's questions').
 */
export function FileChooser({ id, label, pending, error, onFile }: { id: string; label: string; pending: boolean; error: string | null; onFile: (file: File, contentType: UploadContentType) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const message = problem ?? error;
  return (
    <div className="file-chooser">
      <label htmlFor={id}>{label}</label>{' '}
      <input
        id={id}
        type="file"
        accept={ACCEPT_ATTRIBUTE}
        disabled={pending}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          const found = checkFile(file).find((each) => each !== fileMessages.nameTooLong) ?? null;
          setProblem(found);
          if (!found) onFile(file, contentTypeOfName(file.name) as UploadContentType);
        }}
      />
      {pending && <span role="status"> Uploading…</span>}
      {message && (
        <span id={`${id}-error`} role="alert">
          {' '}
          {message}
        </span>
      )}
    </div>
  );
}
