import { api, dataOf } from '../../../lib/api/client';
import { UnauthorizedError } from '../../../lib/api/errors';

/**
 * GET /api/session: when any tab last used the account's session (ms since the epoch), without
 * keeping it alive; null once it has ended (issue 48).
 */
export const sessionLastActive = (): Promise<number | null> =>
  dataOf(api.GET('/api/session')).then(
    (status) => (status.last_active_at ? Date.parse(status.last_active_at) : null),
    (error: unknown) => {
      if (error instanceof UnauthorizedError) return null;
      throw error;
    },
  );
