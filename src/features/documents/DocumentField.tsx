import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ServerError } from '../../lib/api/errors';
import { pollDelay } from '../../lib/polling';
import { conversionQuery, deleteConversion, startConversion } from './api/conversion';
import { deleteDocument, documentAnswersQuery, refreshDocumentQueries } from './api/documentAnswers';
import { presignUpload, type UploadContentType } from './api/presignedUrl';
import { uploadFile } from '../../lib/api/upload';
import type { ExpandedField } from '../../../domain/catalogue';
import { ANSWERED, CONVERSION_POLL_MS } from '../../../domain/config';
import { CONVERSION_FAILED_MESSAGE } from '../../../domain/messages';
import { describedBy, FieldMessages } from '../../ui/Field';
import { formatFileSize } from '../../../domain/rules/formats';
import { Button } from '../../ui/Button';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { ACCEPT_ATTRIBUTE, checkFile, contentTypeOfName } from '../../../domain/rules/files';
import { uploadErrorLabel } from './labels';

const UPLOAD_NEEDS_ACCOUNT = 'This question can be finished once you have created an account.';
const DELETE_FILE = { header: 'Delete File', text: 'Are you sure you want to delete your file?' } as const;

/** Statuses that keep the field in its converting state and the poll running (spec/form.md §4). */
const PENDING = new Set(['unprocessed', 'in_progress']);

interface DocumentFieldProps {
  field: ExpandedField;
  /** Validation messages of the form (a required document that is missing). */
  errors?: string[];
  loggedIn: boolean;
  onChange: (update: Record<string, string>) => void;
}

/** The conversion status of one document question, polled every 2 s while it is pending (less often while the server fails). */
function useConversion(key: string, enabled: boolean) {
  return useQuery({
    ...conversionQuery(key),
    enabled,
    refetchInterval: (query) => (PENDING.has(query.state.data?.status ?? '') ? pollDelay(CONVERSION_POLL_MS, query.state.fetchFailureCount) : false),
  });
}

/**
 * A document question (spec/form.md §4): idle (a file input), converting, then the file's name
 * and size with a Delete button behind the 'Delete File' confirmation. Visitors see why they
 * cannot upload yet.
 */
export function DocumentField({ field, errors, loggedIn, onChange }: DocumentFieldProps) {
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const conversion = useConversion(field.key, loggedIn);
  const documents = useQuery({ ...documentAnswersQuery, enabled: loggedIn });
  const [uploading, setUploading] = useState<string | null>(null);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const status = conversion.data?.status;
  const refresh = () => refreshDocumentQueries(queryClient, [field.key]);

  // Completed: the question counts as answered. Failed: the message shows and the field is emptied.
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!status || handled.current === `${status}:${conversion.dataUpdatedAt}`) return;
    handled.current = `${status}:${conversion.dataUpdatedAt}`;
    if (status === 'completed') {
      onChange({ [field.key]: ANSWERED });
      void queryClient.invalidateQueries({ queryKey: documentAnswersQuery.queryKey });
    } else if (status === 'failed') {
      setFileErrors([conversion.data?.message ?? CONVERSION_FAILED_MESSAGE]);
      onChange({ [field.key]: '' });
      void deleteConversion(field.key)
        .catch(() => {})
        .finally(() => void refresh());
    }
  }, [status, conversion.dataUpdatedAt]); // eslint-disable-line react-hooks/exhaustive-deps -- once per new status reading

  async function upload(file: File) {
    const problems = checkFile(file);
    if (problems.length > 0) {
      setFileErrors(problems);
      return;
    }
    setFileErrors([]);
    setUploading(file.name);
    try {
      const post = await presignUpload(field.key, contentTypeOfName(file.name) as UploadContentType);
      await uploadFile(post, file);
      await startConversion(field.key, post.fields.key, file.name);
      await queryClient.invalidateQueries({ queryKey: conversionQuery(field.key).queryKey });
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      // The storage's own checks (size, the real type of the bytes) speak to the file itself.
      if (error.status === 400 || error.status === 413 || error.status === 415) setFileErrors([error.message]);
      else showToast({ severity: 'error', label: uploadErrorLabel(field.label), message: error.message });
      onChange({ [field.key]: '' });
      await deleteConversion(field.key).catch(() => {});
      await refresh();
    } finally {
      setUploading(null);
      if (input.current) input.current.value = '';
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await deleteDocument(field.key);
      onChange({ [field.key]: '' });
      setConfirmingDelete(false);
      await refresh();
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      setConfirmingDelete(false);
      showToast({ severity: 'error', label: 'Error', message: error.message });
    } finally {
      setDeleting(false);
    }
  }

  const shownErrors = [...fileErrors, ...(errors ?? [])];
  const uploaded = documents.data?.[field.key];
  const converting = uploading !== null || (status !== undefined && PENDING.has(status));

  let body;
  let showsInput = false;
  if (!loggedIn) {
    body = <p className="field__note">{UPLOAD_NEEDS_ACCOUNT}</p>;
  } else if ((conversion.isPending || (status === 'completed' && documents.isPending)) && !converting) {
    body = <Loading label={`Loading ${field.label}`} />;
  } else if (converting) {
    body = (
      <div className="document__state">
        <Loading label={uploading ? `Uploading ${uploading} and converting it to PDF` : 'Converting your file to PDF'} />
        {/* Loading announces the same words politely. */}
        <span aria-hidden="true">{uploading ? `Uploading ${uploading}…` : 'Converting your file to PDF…'}</span>
      </div>
    );
  } else if (status === 'completed' && uploaded) {
    body = (
      <div className="document__state">
        <span id={`${field.key}-file`} className="document__file">
          {uploaded.file_name} ({formatFileSize(uploaded.file_size)})
        </span>
        <Button variant="secondary" onClick={() => setConfirmingDelete(true)} aria-describedby={`${field.key}-file`}>
          Delete
        </Button>
      </div>
    );
  } else {
    showsInput = true;
    body = (
      <input
        ref={input}
        id={field.key}
        name={field.key}
        type="file"
        className="document__input"
        accept={ACCEPT_ATTRIBUTE}
        aria-invalid={shownErrors.length > 0 ? true : undefined}
        aria-describedby={describedBy({ id: field.key, hint: field.hint, errors: shownErrors })}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
        }}
      />
    );
  }

  return (
    <div className={`field field--document${shownErrors.length > 0 ? ' field--invalid' : ''}`}>
      {showsInput ? (
        <label className="field__label" htmlFor={field.key}>
          {field.label}
        </label>
      ) : (
        <span className="field__label" id={field.key} tabIndex={-1}>
          {field.label}
        </span>
      )}
      <FieldMessages id={field.key} hint={field.hint} errors={shownErrors} />
      {body}
      <Modal
        open={confirmingDelete}
        onClose={() => setConfirmingDelete(false)}
        header={DELETE_FILE.header}
        size="xs"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmingDelete(false)}>
              Cancel
            </Button>
            <Button loading={deleting} onClick={() => void remove()}>
              Delete
            </Button>
          </>
        }
      >
        <p>{DELETE_FILE.text}</p>
      </Modal>
    </div>
  );
}
