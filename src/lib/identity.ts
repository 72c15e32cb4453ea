import { IDENTITY_COOKIE_PREFIX } from '../../domain/config';

/** The cookies of the request a server render is drawing (src/serverRender.tsx), while it draws. */
let renderingFor: string | null = null;

/** spec/platform.md §3: logged in ⇔ a cookie whose name starts with the identity-provider prefix. */
export function isLoggedIn(cookies: string = renderingFor ?? (typeof document === 'undefined' ? '' : document.cookie)): boolean {
  return cookies.split(';').some((part) => part.trim().startsWith(IDENTITY_COOKIE_PREFIX));
}

/**
 * Draws a page on the server as the browser with these cookies will: the render must be
 * synchronous (renderToString), so no other request's render can run in between.
 */
export function renderWithCookies<T>(cookies: string, render: () => T): T {
  renderingFor = cookies;
  try {
    return render();
  } finally {
    renderingFor = null;
  }
}
