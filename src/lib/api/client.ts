import createClient, { type Middleware } from 'openapi-fetch';
import type { OpenapiQueryClient } from 'openapi-react-query';
import { GENERIC_ERROR_MESSAGE } from '../../../domain/messages';
import type { paths } from '../../../generated/api';
import { accountChanged, boundApplication, sessionEnded } from '../sessionEnd';
import { errorFromNetworkFailure, errorFromResponse, ServerError, UnauthorizedError } from './errors';

/** Calls that need a session: their 401 means the session ended. The public calls' 401 is their own error. */
const isSessionCall = (url: string) => new URL(url, 'http://x').pathname.startsWith('/api/');

/**
 * Turns every non-JSON or non-OK answer into a thrown ServerError / UnauthorizedError; a 401 of a
 * signed-in call also ends the session in the app, whichever screen or button made the call.
 */
const errorMapping: Middleware = {
  onRequest({ request }) {
    // Every write names the application its page was loaded for (issue 28): the server refuses it
    // when someone else has signed in since in this browser.
    const application = boundApplication();
    if (application && request.method !== 'GET' && isSessionCall(request.url)) request.headers.set('X-Application-Id', application.applicationId);
    return request;
  },
  async onResponse({ request, response }) {
    const error = await errorFromResponse(response);
    if (error instanceof UnauthorizedError) {
      if (!isSessionCall(request.url)) throw new ServerError(error.message, 401);
      sessionEnded();
    }
    if (error instanceof ServerError && error.code === 'ACCOUNT_CHANGED') accountChanged();
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

/**
 * TanStack Query on the same client: query keys, types and the cancel `signal` come from the
 * contract. openapi-react-query's `queryOptions` with its types, and its runtime line for line
 * (0.5.4): its createClient also builds useQuery, useSuspenseQuery, useInfiniteQuery and
 * useMutation on an object no bundler can trim, 3.5 kB (gzip) of TanStack's infinite and suspense
 * queries on /login, which reads nothing. The app passes these options to TanStack's own hooks.
 * client.test.ts holds it to the library's createClient, key for key and answer for answer.
 */
export function createQueryOptions(client: ReturnType<typeof createApiClient>): Pick<OpenapiQueryClient<paths>, 'queryOptions'> {
  type Call = (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const queryFn = async ({ queryKey: [method, path, init], signal }: { queryKey: readonly [string, string, object?]; signal: AbortSignal }) => {
    const { data, error, response } = await ((client as unknown as Record<string, Call>)[method.toUpperCase()]!)(path, { signal, ...init });
    if (error) throw error;
    if (response.status === 204 || response.headers.get('Content-Length') === '0') return data ?? null;
    return data;
  };
  const queryOptions = (method: string, path: string, ...[init, options]: [object?, object?]) => ({
    queryKey: init === undefined ? [method, path] : [method, path, init],
    queryFn,
    ...options,
  });
  return { queryOptions: queryOptions as unknown as OpenapiQueryClient<paths>['queryOptions'] };
}

export const $api = createQueryOptions(api);

/**
 * The data of a call that the contract says answers with a body. Errors were thrown by the
 * middleware already; a success without a body is not what the contract promised, so it is one too.
 */
export async function dataOf<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) throw new ServerError(GENERIC_ERROR_MESSAGE, response.status);
  return data;
}

/** A call the contract answers with 204 and no body: done once it succeeded (errors were thrown by the middleware). */
export async function doneOf(call: Promise<{ response: Response }>): Promise<void> {
  const { response } = await call;
  if (response.status !== 204) throw new ServerError(GENERIC_ERROR_MESSAGE, response.status);
}
