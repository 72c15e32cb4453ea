import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { restoreVisitorAnswers } from './api/savedAnswers';
import { SAVED_ANSWERS_LINK_INVALID } from '../../../domain/messages';
import { ServerError } from '../../lib/api/errors';
import type { StudentAnswers } from '../../lib/navState';
import { SUCCESS_TOAST_LABEL, useToast } from '../../ui/Toast';

const RESTORED_MESSAGE = 'Your saved answers are back. Create an account to keep working on them.';
const RESTORE_ERROR_LABEL = 'Saved Answers Error';

/**
 * A visitor's saved answers come back when the page opens with ?token= (spec/platform.md §1). The
 * token then leaves the address, so a reload does not overwrite what was typed since.
 */
export function useRestoreSavedAnswers(loggedIn: boolean, setAnswers: (answers: StudentAnswers) => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const { showToast } = useToast();
  const token = new URLSearchParams(location.search).get('token');
  const tried = useRef<string | null>(null);

  useEffect(() => {
    if (!token || loggedIn || tried.current === token) return;
    tried.current = token;
    const rest = new URLSearchParams(location.search);
    rest.delete('token');
    const withoutToken = { pathname: location.pathname, search: rest.size ? `?${rest}` : '', hash: location.hash };
    restoreVisitorAnswers(token)
      .then(({ answer }) => {
        setAnswers(answer);
        showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: RESTORED_MESSAGE });
        navigate(withoutToken, { replace: true });
      })
      .catch((error: unknown) => {
        if (!(error instanceof ServerError)) throw error;
        // A token the contract refuses outright (cut short, mangled) is a link that is not valid.
        const message = error.status === 400 ? SAVED_ANSWERS_LINK_INVALID : error.message;
        showToast({ severity: 'error', label: RESTORE_ERROR_LABEL, message });
        navigate(withoutToken, { replace: true });
      });
  }, [token, loggedIn]); // eslint-disable-line react-hooks/exhaustive-deps -- once per token; the location it leaves is read when it runs
}
