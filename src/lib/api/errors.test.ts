// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it, vi } from 'vitest';
import { bindApplication, boundApplication, sessionStarted, setAccountChangedHandler, setSessionEndedHandler, shownApplication } from '../sessionEnd';
import { createApiClient } from './client';
import { ServerError, UnauthorizedError, errorFromNetworkFailure, errorFromResponse, fieldErrorsOf } from './errors';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const text = (status: number, body: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/html' } });

const GENERIC = "We've encountered an unexpected error at this time. Please try again later.";

describe('errorFromResponse', () => {
  it('returns null for an OK JSON response', async () => {
    expect(await errorFromResponse(json(200, { message: 'ok' }))).toBeNull();
  });

  it('returns null for 204 No Content', async () => {
    expect(await errorFromResponse(new Response(null, { status: 204 }))).toBeNull();
  });

  it.each([200, 400, 401, 500])('a non-JSON body with status %i is a server error with the generic text', async (status) => {
    const error = await errorFromResponse(text(status, '<html>Bad gateway</html>'));
    expect(error).toBeInstanceOf(ServerError);
    expect(error?.message).toBe(GENERIC);
  });

  it('a 401 is an unauthorized error', async () => {
    const error = await errorFromResponse(json(401, { message: 'Session expired.' }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error?.message).toBe('Session expired.');
  });

  it('a 401 without a message still is an unauthorized error', async () => {
    const error = await errorFromResponse(json(401, {}));
    expect(error).toBeInstanceOf(UnauthorizedError);
  });

  it.each([400, 403, 404, 409, 413, 415, 429, 500, 503])(
    'a non-OK %i with a string message is a server error with that message',
    async (status) => {
      const error = await errorFromResponse(json(status, { message: 'Exactly this.' }));
      expect(error).toBeInstanceOf(ServerError);
      expect(error?.message).toBe('Exactly this.');
      expect((error as ServerError).status).toBe(status);
    },
  );

  it.each([
    ['a number', { message: 42 }],
    ['an object', { message: { text: 'nested' } }],
    ['null', { message: null }],
    ['missing', { error: 'x' }],
    ['an empty string', { message: '' }],
    ['an array body', ['x']],
  ])('a non-OK response whose message is %s uses the generic text', async (_label, body) => {
    const error = await errorFromResponse(json(400, body));
    expect(error).toBeInstanceOf(ServerError);
    expect(error?.message).toBe(GENERIC);
  });

  it('keeps the field errors and code of a 400/403', async () => {
    const error = (await errorFromResponse(
      json(400, { message: 'Check the fields.', code: 'X', errors: { username: ['Your email address must be valid.'] } }),
    )) as ServerError;
    expect(error.fieldErrors).toEqual({ username: ['Your email address must be valid.'] });
    expect(error.code).toBe('X');
  });
});

describe('the api client', () => {
  const clientAnswering = (response: () => Response | Promise<Response>) =>
    createApiClient({ baseUrl: 'http://portal.test', fetch: async () => response() });

  it('returns the data of an OK JSON answer', async () => {
    const client = clientAnswering(() => json(200, { message: 'Status recorded.' }));
    const { data } = await client.POST('/api/web-status', { body: { web_status: 'started' } });
    expect(data).toEqual({ message: 'Status recorded.' });
  });

  it('throws UnauthorizedError on a 401 of a signed-in call and ends the session once for the calls in flight', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    const client = clientAnswering(() => json(401, { message: 'No session.' }));
    await expect(client.GET('/api/profile')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(client.PUT('/api/answer', { body: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(ended).toHaveBeenCalledTimes(1);
    sessionStarted();
    await expect(client.POST('/api/logout')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(ended).toHaveBeenCalledTimes(2);
    sessionStarted();
  });

  it("a 401 of a public call (wrong password) is that call's error with its message, not a session end", async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    const client = clientAnswering(() => json(401, { message: 'Incorrect username or password.' }));
    const call = client.POST('/public/login', { body: { username: 'a@b.co', password: 'x' } });
    await expect(call).rejects.toMatchObject({ name: 'ServerError', status: 401, message: 'Incorrect username or password.' });
    expect(ended).not.toHaveBeenCalled();
  });

  it('throws ServerError with the server message on other statuses', async () => {
    const client = clientAnswering(() => json(409, { message: 'Already submitted.' }));
    await expect(client.PUT('/api/answer', { body: {} })).rejects.toMatchObject({
      name: 'ServerError',
      message: 'Already submitted.',
    });
  });

  it('throws ServerError with the generic text on a non-JSON answer', async () => {
    const client = clientAnswering(() => text(200, 'not json'));
    await expect(client.GET('/api/profile')).rejects.toMatchObject({ message: GENERIC });
  });

  it('turns a network failure into a server error that says the connection is down (issue 48)', async () => {
    const client = createApiClient({
      baseUrl: 'http://portal.test',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(client.GET('/api/profile')).rejects.toMatchObject({
      status: null,
      message: 'We could not reach the portal: your connection seems to be down. Please try again once you are back online.',
    });
  });

  it('sends a JSON content type and body', async () => {
    let seen: Request | undefined;
    const client = createApiClient({
      baseUrl: 'http://portal.test',
      fetch: async (input) => {
        seen = input as Request;
        return json(200, { message: 'ok' });
      },
    });
    await client.PUT('/api/last-page', { body: { last_page: '/education' } });
    expect(seen?.headers.get('content-type')).toBe('application/json');
    expect(await seen?.json()).toEqual({ last_page: '/education' });
  });

  it("names the page's application on every signed-in write, never on a read or a public call (issue 28)", async () => {
    const seen: Request[] = [];
    const client = createApiClient({ baseUrl: 'http://portal.test', fetch: async (input) => (seen.push(input as Request), json(200, { message: 'ok' })) });
    bindApplication({ applicationId: '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10', username: 'a@b.co' });
    await client.PUT('/api/last-page', { body: { last_page: '/education' } });
    await client.GET('/api/profile');
    await client.POST('/public/login', { body: { username: 'a@b.co', password: 'x' } });
    expect(seen.map((request) => request.headers.get('x-application-id'))).toEqual(['0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10', null, null]);
    bindApplication(null);
    await client.PUT('/api/last-page', { body: { last_page: '/education' } });
    expect(seen[3]!.headers.get('x-application-id')).toBeNull();
  });

  it('hands a write refused with ACCOUNT_CHANGED to the app once, still throws its error, and keeps naming the old application', async () => {
    const changed = vi.fn();
    setAccountChangedHandler(changed);
    bindApplication({ applicationId: '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10', username: 'a@b.co' });
    const client = clientAnswering(() => json(409, { message: 'Another account.', code: 'ACCOUNT_CHANGED' }));
    await expect(client.PUT('/api/answer', { body: {} })).rejects.toMatchObject({ name: 'ServerError', code: 'ACCOUNT_CHANGED' });
    await expect(client.PUT('/api/answer', { body: {} })).rejects.toMatchObject({ code: 'ACCOUNT_CHANGED' });
    expect(changed).toHaveBeenCalledTimes(1);
    // The tab no longer shows it, but a write still on its way (a save as the page closes) names it.
    expect(shownApplication()).toBeNull();
    expect(boundApplication()?.applicationId).toBe('0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10');
    bindApplication(null);
  });
});

describe('fieldErrorsOf', () => {
  it('reads the fields a refusal names, and none from anything else', async () => {
    const refused = await errorFromResponse(json(400, { message: 'Please check the highlighted fields.', errors: { reason: ['Say why.'], 'ratings.academic': ['Choose one.'] } }));
    expect(fieldErrorsOf(refused)).toEqual({ reason: ['Say why.'], 'ratings.academic': ['Choose one.'] });
    expect(fieldErrorsOf(await errorFromResponse(json(409, { message: 'Already decided.' })))).toEqual({});
    expect(fieldErrorsOf(errorFromNetworkFailure())).toEqual({});
    expect(fieldErrorsOf(new UnauthorizedError('Your session is invalid.'))).toEqual({});
    expect(fieldErrorsOf(new Error('a bug'))).toEqual({});
    expect(fieldErrorsOf(null)).toEqual({});
  });
});
