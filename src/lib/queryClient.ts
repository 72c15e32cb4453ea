import { QueryClient } from '@tanstack/react-query';

/**
 * Data fetching per spec/platform.md §9: no retry, never stale, no refetch on focus or mount.
 * A 401 is handled where every call passes, the API client (lib/api/client.ts), not here.
 */
export function createQueryClient() {
  return new QueryClient({
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
