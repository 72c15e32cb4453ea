// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import createClient from 'openapi-react-query';
import { createApiClient, createQueryOptions } from './client';

/**
 * The app's queryOptions is openapi-react-query's runtime without its hooks (client.ts says why):
 * held here to the library's own, key for key and answer for answer, so an upgrade that changes
 * either shows.
 */
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function both(answer: () => Response) {
  const seen: Request[] = [];
  const client = createApiClient({ baseUrl: 'http://portal.test', fetch: (async (request: Request) => (seen.push(request), answer())) as typeof fetch });
  return { ours: createQueryOptions(client), library: createClient(client), seen };
}

describe("queryOptions, as openapi-react-query's", () => {
  it('the same keys, with and without the call’s parameters', () => {
    const { ours, library } = both(() => json(200, {}));
    expect(ours.queryOptions('get', '/api/profile').queryKey).toEqual(library.queryOptions('get', '/api/profile').queryKey);
    const init = { params: { query: { state: 'released' as const, page: 2 } } };
    expect(ours.queryOptions('get', '/staff/api/decisions', init).queryKey).toEqual(library.queryOptions('get', '/staff/api/decisions', init).queryKey);
    expect(ours.queryOptions('get', '/api/profile', undefined, { staleTime: 5 }).staleTime).toBe(5);
  });

  it.each([
    ['a body', () => json(200, { username: 'ann@example.com' })],
    ['no body (204)', () => new Response(null, { status: 204 })],
  ])('the same answer for %s, the same request sent', async (_, answer) => {
    const { ours, library, seen } = both(answer);
    const signal = new AbortController().signal;
    const call = (options: { queryKey: unknown; queryFn?: unknown }) => (options.queryFn as (context: unknown) => Promise<unknown>)({ queryKey: options.queryKey, signal });
    const init = { params: { query: { state: 'released' as const, page: 2 } } };
    expect(await call(ours.queryOptions('get', '/staff/api/decisions', init))).toEqual(await call(library.queryOptions('get', '/staff/api/decisions', init)));
    expect(seen.map((request) => request.url)).toEqual(['http://portal.test/staff/api/decisions?state=released&page=2', 'http://portal.test/staff/api/decisions?state=released&page=2']);
  });

  it('the same error thrown for a refused call', async () => {
    const { ours, library } = both(() => json(400, { message: 'Not so.' }));
    const call = (options: { queryKey: unknown; queryFn?: unknown }) => (options.queryFn as (context: unknown) => Promise<unknown>)({ queryKey: options.queryKey, signal: new AbortController().signal });
    const [mine, theirs] = await Promise.allSettled([call(ours.queryOptions('get', '/api/profile')), call(library.queryOptions('get', '/api/profile'))]);
    expect(mine.status).toBe('rejected');
    expect(mine).toEqual(theirs);
  });
});
