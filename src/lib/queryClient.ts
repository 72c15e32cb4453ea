import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { UnauthorizedError } from './api/errors';

/**
 * Data fetching per spec/platform.md §9: no retry, never stale, no refetch on focus or mount.
 * `onUnauthorized` runs for any 401 (the app clears the cache and goes to /login).
 */
export function createQueryClient(onUnauthorized: (error: UnauthorizedError) => void = () => {}) {
  const handle = (error: unknown) => {
    if (error instanceof UnauthorizedError) onUnauthorized(error);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: handle }),
    mutationCache: new MutationCache({ onError: handle }),
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
      },
      mutations: { retry: false },
    },
  });
}
