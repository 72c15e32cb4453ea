import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { GENERIC_ERROR_MESSAGE } from '../../../domain/messages';
import { pdfCopyQuery, retryPdfCopy } from './api/pdfCopy';
import { ServerError } from '../../lib/api/errors';
import { pollDelay } from '../../lib/polling';
import { Button } from '../../ui/Button';
import { PDF_POLL_AFTER_MS, PDF_POLL_FIRST_MS } from '../../../domain/config';
import { Loading } from '../../ui/Loading';
import { PDF_DOWNLOAD_ERROR_LABEL } from './labels';

const PDF_COPY_TEXTS = {
  preparing: 'We are preparing a PDF copy of your application.',
  download: 'Download a PDF copy of your application',
  failed: 'The PDF copy of your application could not be made.',
} as const;

const FINAL = new Set(['COMPLETED', 'FAILED']);

/**
 * The PDF copy on the completion page: polled every second until it is ready, then every 10
 * minutes; less often while the server fails. A failed copy can be asked for again.
 */
export function PdfCopy() {
  const queryClient = useQueryClient();
  const copy = useQuery({
    ...pdfCopyQuery,
    refetchInterval: (query) =>
      pollDelay(FINAL.has(query.state.data?.status ?? '') ? PDF_POLL_AFTER_MS : PDF_POLL_FIRST_MS, query.state.fetchFailureCount),
  });
  const status = copy.data?.status;
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<string | null>(null);

  async function retry() {
    setRetrying(true);
    try {
      // A failed copy is made again; a status that could not be read is read again.
      if (status === 'FAILED') queryClient.setQueryData(pdfCopyQuery.queryKey, await retryPdfCopy());
      else await copy.refetch();
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      setRetryError(error.message);
    } finally {
      setRetrying(false);
    }
  }

  if (status === 'COMPLETED' && copy.data?.url) {
    return (
      <p className="pdf-copy">
        <a className="button button--secondary" href={copy.data.url} download>
          {PDF_COPY_TEXTS.download}
        </a>
      </p>
    );
  }
  if (status === 'FAILED' || copy.isError) {
    // The spec's labelled error (platform.md §8), in the page beside its Try again: a toast over
    // it covered the button on a phone and said the same twice (issue 48).
    const said = retryError ?? (copy.isError ? copy.error?.message || GENERIC_ERROR_MESSAGE : (copy.data?.message ?? PDF_COPY_TEXTS.failed));
    return (
      <div className="pdf-copy notice notice--error" role="alert">
        <p className="pdf-copy__label">{PDF_DOWNLOAD_ERROR_LABEL}</p>
        <p>{said === PDF_COPY_TEXTS.failed ? said : `${PDF_COPY_TEXTS.failed} ${said}`}</p>
        <Button variant="secondary" loading={retrying} onClick={() => void retry()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="pdf-copy">
      <Loading label={PDF_COPY_TEXTS.preparing} />
      <span aria-hidden="true">{PDF_COPY_TEXTS.preparing}</span>
    </div>
  );
}
