import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_SCREEN_TEXT, ERROR_SCREEN_TITLE } from './ErrorScreen';
import { makeRoutes } from './routes';

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search + location.hash}</output>;
}

function renderAt(url: string, screens: Parameters<typeof makeRoutes>[0] = {}) {
  const router = createMemoryRouter(makeRoutes(screens), { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

const allScreens = {
  about: <Where />, education: <Where />, finalSteps: <Where />, completion: <Where />,
  login: <Where />, signup: <Where />, confirm: <Where />, forgot: <Where />, reset: <Where />,
};

describe('routes', () => {
  it.each([
    '/about', '/education', '/final-steps', '/completion',
    '/login', '/signup', '/confirm', '/forgot', '/reset?username=a%40b.c&id=xyz',
  ])('%s is a route of its own', (url) => {
    renderAt(url, allScreens);
    expect(screen.getByLabelText('location').textContent).toBe(url);
  });

  it.each([
    ['/', '/about'],
    ['/unknown', '/about'],
    ['/unknown/deeper?token=abc123', '/about?token=abc123'],
    ['/?service_token=s3rv1ce', '/about?service_token=s3rv1ce'],
    ['/apply?token=t&x=1#frag', '/about?token=t&x=1#frag'],
  ])('%s redirects to %s, keeping the query string', (from, to) => {
    const router = renderAt(from, allScreens);
    expect(screen.getByLabelText('location').textContent).toBe(to);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the root error screen with the exact spec text when a screen throws', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Thrower = () => {
      throw new Error('boom');
    };
    renderAt('/about', { about: <Thrower /> });
    expect(screen.getByRole('heading', { name: 'Something went wrong.' })).toBeTruthy();
    expect(screen.getByText(ERROR_SCREEN_TEXT)).toBeTruthy();
    expect(ERROR_SCREEN_TITLE).toBe('Something went wrong.');
    expect(ERROR_SCREEN_TEXT).toBe(
      'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.',
    );
    spy.mockRestore();
  });

  it('form pages have the step navigation; the completion page does not', () => {
    renderAt('/education');
    const nav = screen.getByRole('navigation', { name: 'Application steps' });
    expect(nav.querySelectorAll('a')).toHaveLength(3);
    expect(screen.getByRole('link', { name: '2 Academics' }).getAttribute('aria-current')).toBe('page');
  });

  it('the completion page has no step navigation', () => {
    renderAt('/completion');
    expect(screen.queryByRole('navigation', { name: 'Application steps' })).toBeNull();
  });
});
