// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './queryClient';
import { ServerError } from './api/errors';

describe('createQueryClient', () => {
  it('applies the data-fetching rules of spec/platform.md §9', () => {
    const options = createQueryClient().getDefaultOptions();
    expect(options.queries).toMatchObject({
      retry: false,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchOnMount: false,
    });
    expect(options.mutations).toMatchObject({ retry: false });
  });

  it('does not retry a failed query', async () => {
    const queryFn = vi.fn(() => Promise.reject(new ServerError('x', 500)));
    await createQueryClient().fetchQuery({ queryKey: ['c'], queryFn }).catch(() => {});
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});
