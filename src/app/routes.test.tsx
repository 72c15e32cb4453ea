import { configure, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType, type Location, type NavigationType } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/queryClient';
import { AppProviders } from './AppProviders';
import { ERROR_SCREEN_TEXT, ERROR_SCREEN_TITLE } from './ErrorScreen';
import { runBeforeAutoLogout } from '../lib/beforeLogout';
import { useApplication } from '../features/application/useApplication';
import { AppRoutes } from './routes';

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search + location.hash}</output>;
}

/** Where the router is and how it got there, read outside the routes (whatever screen shows). */
interface RouterState {
  location: Location;
  historyAction: NavigationType;
}

function RouterProbe({ into }: { into: { state: RouterState | null } }) {
  into.state = { location: useLocation(), historyAction: useNavigationType() };
  return null;
}

function renderAt(url: string, screens: Parameters<typeof AppRoutes>[0]['screens'] = {}) {
  const router: { state: RouterState | null } = { state: null };
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <RouterProbe into={router} />
        <AppRoutes screens={screens} />
      </MemoryRouter>
    </AppProviders>,
  );
  return router as { state: RouterState };
}

// The form's routes load their code on first use: the first import can take many seconds on a
// busy machine (Vite transforms the form and its catalogue). It is loaded once here, with room,
// so that no test's own time holds it; every find and wait of this file still gives it room.
beforeAll(() => Promise.all([import('./FormOrPrintRoot'), import('../features/application/FormPage'), import('../features/application/CompletionPage')]), 120_000);
configure({ asyncUtilTimeout: 15_000 });

const allScreens = {
  about: <Where />, education: <Where />, 'final-steps': <Where />, completion: <Where />,
  login: <Where />, signup: <Where />, confirm: <Where />, forgot: <Where />, reset: <Where />,
};

describe('routes', () => {
  it.each([
    '/about', '/education', '/final-steps',
    '/login', '/signup', '/confirm', '/forgot', '/reset?username=a%40b.c&id=xyz',
  ])('%s is a route of its own', async (url) => {
    renderAt(url, allScreens);
    expect((await screen.findByLabelText('location')).textContent).toBe(url);
  });

  it.each([
    ['/', '/about'],
    ['/unknown', '/about'],
    ['/unknown/deeper?token=abc123', '/about?token=abc123'],
    ['/?service_token=s3rv1ce', '/about?service_token=s3rv1ce'],
    ['/apply?token=t&x=1#frag', '/about?token=t&x=1#frag'],
  ])('%s redirects to %s, keeping the query string', (from, to) => {
    const router = renderAt(from, allScreens);
    // Read from the router: a service_token shows the print view instead of the test's screens.
    const { pathname, search, hash } = router.state.location;
    expect(`${pathname}${search}${hash}`).toBe(to);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the root error screen with the exact spec text when a screen throws, reports it, and offers a way on', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const reports: Request[] = [];
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      reports.push(input as Request);
      return new Response(JSON.stringify({ message: 'Logged.' }), { status: 202, headers: { 'Content-Type': 'application/json' } });
    });
    const Thrower = () => {
      throw new Error('boom');
    };
    renderAt('/about', { about: <Thrower /> });
    expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeTruthy();
    expect(screen.getByText(ERROR_SCREEN_TEXT)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your application' }).getAttribute('href')).toBe('/about');
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(new URL(reports[0]!.url).pathname).toBe('/public/client-errors');
    expect(await reports[0]!.json()).toMatchObject({ message: 'Error: boom', path: '/about' });
    fetchSpy.mockRestore();
    expect(ERROR_SCREEN_TITLE).toBe('Something went wrong.');
    expect(ERROR_SCREEN_TEXT).toBe(
      'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.',
    );
    spy.mockRestore();
  });

  it('form pages have the step navigation; the completion page does not', async () => {
    renderAt('/education');
    const nav = await screen.findByRole('navigation', { name: 'Application steps' });
    expect(nav.querySelectorAll('a')).toHaveLength(3);
    expect(screen.getByRole('link', { name: '2 Academics' }).getAttribute('aria-current')).toBe('page');
  });

  it('a visitor who is not submitted and opens /completion is sent to the default route', async () => {
    renderAt('/completion?x=1', allScreens);
    await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/about?x=1'));
  });

  describe('for a signed-in applicant', () => {
    const at = '2026-11-22T18:00:00Z';
    const profile = (statuses: string[], last_page: string | null = null) => ({
      username: 'Applicant@Example.com', last_page, answer: {}, document_answer: {},
      successful_login: [{ timestamp: at }], web_status: statuses.map((web_status) => ({ web_status, created_at: at })),
    });
    let calls: string[];
    function serve(body: object) {
      calls = [];
      vi.stubGlobal('fetch', async (request: Request) => {
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        const payload = new URL(request.url).pathname === '/api/profile' ? body : { message: 'ok' };
        return new Response(JSON.stringify(payload), { status: 200, headers: { 'Content-Type': 'application/json' } });
      });
    }
    beforeEach(() => {
      document.cookie = 'portal-idp.session=1; path=/';
    });
    afterEach(() => {
      document.cookie = 'portal-idp.session=; path=/; max-age=0';
      vi.unstubAllGlobals();
    });

    it('a submitted applicant is always sent to /completion, which has no step navigation', async () => {
      serve(profile(['started', 'validating', 'submitted']));
      renderAt('/education', { completion: <Where /> });
      expect((await screen.findByLabelText('location')).textContent).toBe('/completion');
      expect(screen.queryByRole('navigation', { name: 'Application steps' })).toBeNull();
    });

    it('goes back to the stored last page once the profile is loaded, writing only the pages then opened', async () => {
      serve(profile(['started'], '/final-steps'));
      const written: unknown[] = [];
      const base = globalThis.fetch;
      vi.stubGlobal('fetch', async (request: Request) => {
        if (new URL(request.url).pathname === '/api/last-page') written.push((await request.clone().json()).last_page);
        return base(request);
      });
      renderAt('/about', allScreens);
      await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/final-steps'));
      screen.getByRole('link', { name: '2 Academics' }).click();
      await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/education'));
      await waitFor(() => expect(written).toEqual(['/education']));
    });

    /** Types `typed` into the application through its owner, and keeps the bodies of every PUT /api/answer. */
    async function typeAndKeepSaves(typed: Record<string, string>) {
      serve(profile(['started']));
      const bodies: Record<string, unknown>[] = [];
      const base = globalThis.fetch;
      vi.stubGlobal('fetch', async (request: Request) => {
        if (request.method === 'PUT' && new URL(request.url).pathname === '/api/answer') bodies.push(await request.clone().json());
        return base(request);
      });
      function Typing() {
        const { setAnswers } = useApplication();
        return (
          <button type="button" onClick={() => setAnswers(typed)}>
            type
          </button>
        );
      }
      renderAt('/about', { about: <Typing /> });
      (await screen.findByRole('button', { name: 'type' })).click();
      return bodies;
    }

    it('saves the current answers before an automatic logout', async () => {
      const bodies = await typeAndKeepSaves({ first_name: 'Jordan' });
      await waitFor(async () => {
        await runBeforeAutoLogout();
        expect(bodies).toContainEqual({ first_name: 'Jordan' });
      });
    });

    it("never sends a document question's ANSWERED mark (the server writes it), nor a key the form does not ask", async () => {
      const bodies = await typeAndKeepSaves({ first_name: 'Jordan', additional_info_doc: 'ANSWERED', retired_question: 'x' });
      await waitFor(async () => {
        await runBeforeAutoLogout();
        expect(bodies).toContainEqual({ first_name: 'Jordan' });
      });
      expect(bodies.some((body) => 'additional_info_doc' in body || 'retired_question' in body)).toBe(false);
    });

    it('shows the error screen when the profile cannot be loaded', async () => {
      const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
      vi.stubGlobal('fetch', async () => new Response('{"message":"down"}', { status: 503, headers: { 'Content-Type': 'application/json' } }));
      renderAt('/about', allScreens);
      expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeTruthy();
      spy.mockRestore();
    });

    it('sets a missing status to started and posts it', async () => {
      serve(profile([]));
      renderAt('/about', allScreens);
      await waitFor(() => expect(calls).toContain('POST /api/web-status'));
    });
  });
});
