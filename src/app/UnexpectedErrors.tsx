import { useEffect, useState, type ReactNode } from 'react';
import { GENERIC_ERROR_MESSAGE } from '../../domain/messages';
import { UnauthorizedError } from '../lib/api/errors';
import { UnexpectedErrorModal } from '../ui/Modal';

/**
 * Errors nothing else handled (a failed promise in a click handler, a script error outside
 * rendering) would otherwise vanish silently; spec/platform.md §2 shows them in the
 * 'Unexpected Error' modal. Rendering errors go to the error screen instead.
 */
export function UnexpectedErrors({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    // A 401 is not unexpected: the session end took the applicant to /login with its message.
    const onRejection = (event: PromiseRejectionEvent) => {
      if (!(event.reason instanceof UnauthorizedError)) show();
    };
    // Only real script errors: the browser's own notices (a ResizeObserver loop, a failed image)
    // also arrive as 'error' events, without an Error object.
    const onError = (event: ErrorEvent) => {
      if (event.error instanceof Error) show();
    };
    window.addEventListener('unhandledrejection', onRejection);
    window.addEventListener('error', onError);
    return () => {
      window.removeEventListener('unhandledrejection', onRejection);
      window.removeEventListener('error', onError);
    };
  }, []);
  return (
    <>
      {children}
      <UnexpectedErrorModal open={open} onClose={() => setOpen(false)} message={GENERIC_ERROR_MESSAGE} />
    </>
  );
}
