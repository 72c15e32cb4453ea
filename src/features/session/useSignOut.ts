import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { UnauthorizedError } from '../../lib/api/errors';
import { forgetAnswersOfOthers } from '../../lib/navState';
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
    async (message: string, { ignoreFailure = false } = {}) => {
      try {
        await logout();
      } catch (error) {
        if (error instanceof UnauthorizedError) return;
        if (!ignoreFailure) throw error;
      }
      forgetAnswersOfOthers(null);
      queryClient.clear();
      navigate(authPaths.login, { state: { error: message } });
    },
    [navigate, queryClient],
  );
}
