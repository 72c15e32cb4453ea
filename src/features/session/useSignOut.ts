import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { UnauthorizedError } from '../../lib/api/errors';
import { forgetAnswersOfOthers } from '../../lib/navState';
import { leftApplication } from '../../lib/sessionEnd';
import { tellOtherTabs } from '../../lib/tabSync';
import { authPaths } from '../../lib/paths';
import { logout } from './api/logout';

/**
 * Signing out, by the button or the inactivity timer: the server ends the session, then nothing of
 * the account stays in the browser (cache, carried answers, drafts) and /login opens with
 * `message`. A session the server had ended already is the session end's to finish. A failed
 * logout call is thrown (spec/platform.md §7) unless `ignoreFailure`.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (message: string, { ignoreFailure = false, reason = 'logout' as 'logout' | 'inactivity' } = {}) => {
      try {
        await logout();
      } catch (error) {
        // Every other tab follows at once, whoever finds the session ended (issue 28).
        if (error instanceof UnauthorizedError) return tellOtherTabs({ type: 'signed-out', reason });
        if (!ignoreFailure) throw error;
      }
      tellOtherTabs({ type: 'signed-out', reason });
      leftApplication();
      forgetAnswersOfOthers(null);
      queryClient.clear();
      navigate(authPaths.login, { state: { error: message } });
    },
    [navigate, queryClient],
  );
}
