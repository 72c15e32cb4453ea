import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/queryClient';
import { webStatusMutation } from './webStatus';

afterEach(() => vi.unstubAllGlobals());

describe('the web-status post', () => {
  it('is tried three times in all (two retries) before it fails', async () => {
    const fetchMock = vi.fn(async () => new Response('{"message":"down"}', { status: 503 }));
    vi.stubGlobal('fetch', fetchMock);
    const client = createQueryClient();
    const mutation = client.getMutationCache().build(client, { ...webStatusMutation, retryDelay: 0 });
    await expect(mutation.execute('started')).rejects.toMatchObject({ message: 'down' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('stops retrying once it succeeds', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('{"message":"down"}', { status: 503 }))
      .mockResolvedValueOnce(new Response('{"message":"Status recorded."}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const client = createQueryClient();
    const mutation = client.getMutationCache().build(client, { ...webStatusMutation, retryDelay: 0 });
    await expect(mutation.execute('validating')).resolves.toEqual({ message: 'Status recorded.' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
