import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../../generated/api';
import { errorFromNetworkFailure, errorFromResponse } from './errors';

/** Turns every non-JSON or non-OK answer into a thrown ServerError / UnauthorizedError. */
export const errorMapping: Middleware = {
  async onResponse({ response }) {
    const error = await errorFromResponse(response);
    if (error) throw error;
    return undefined;
  },
  onError({ error }) {
    // fetch itself failed (offline, DNS, aborted): keep aborts as they are so cancellation works.
    if (error instanceof DOMException && error.name === 'AbortError') return error;
    return errorFromNetworkFailure();
  },
};

export function createApiClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}) {
  const client = createClient<paths>({
    // An absolute base: Request() needs one outside the browser (tests, server-side rendering).
    baseUrl: options.baseUrl ?? globalThis.location?.origin ?? '',
    // Looked up per call, not captured once, so a test's stubbed global fetch is the one used.
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  client.use(errorMapping);
  return client;
}

/** The one client of the app: nothing else calls fetch for the API. */
export const api = createApiClient();
export type ApiClient = ReturnType<typeof createApiClient>;
