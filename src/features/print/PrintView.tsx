import { useEffect, useState } from 'react';
import { GENERIC_ERROR_MESSAGE, PRINT_LINK_INVALID } from '../../../domain/messages';
import { ServerError, UnauthorizedError } from '../../lib/api/errors';
import { getServiceView } from './api/serviceView';
import { usePageTitle } from '../../lib/usePageTitle';
import { Loading } from '../../ui/Loading';
import { ApplicationDocument, documentTitle, hasPhoneFromAbroad, printedPageStyle, type ServiceView } from '../../../views/document/ApplicationDocument';
import { usePrintedDocument } from '../../lib/useAdoptedStyle';
import '../../../views/document/document.css';

/** The service user's read-only print view: the application of a service token, as ApplicationDocument prints it. */
export function PrintView({ token }: { token: string }) {
  const [view, setView] = useState<ServiceView | null>(null);
  const [error, setError] = useState<string | null>(null);
  usePageTitle(view ? documentTitle(view) : 'Application');

  useEffect(() => {
    let current = true;
    getServiceView(token).then(
      (data) => current && setView(data),
      (caught: unknown) => {
        if (!current) return;
        if (caught instanceof UnauthorizedError) setError(PRINT_LINK_INVALID);
        else setError(caught instanceof ServerError ? caught.message : GENERIC_ERROR_MESSAGE);
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (error) {
    return (
      <main className="print">
        <h1>Application</h1>
        <p role="alert">{error}</p>
      </main>
    );
  }
  if (!view) return <Loading fullScreen label="Loading the application" />;
  return <PrintedApplication view={view} />;
}

/** The document as the PDF copy prints it: its page header and numbers, its phones from abroad grouped. */
function PrintedApplication({ view }: { view: ServiceView }) {
  usePrintedDocument(printedPageStyle(view), hasPhoneFromAbroad(view));
  return <ApplicationDocument view={view} />;
}
