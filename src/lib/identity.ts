import { IDENTITY_COOKIE_PREFIX } from '../../domain/config';

/** spec/platform.md §3: logged in ⇔ a cookie whose name starts with the identity-provider prefix. */
export function isLoggedIn(cookies: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookies.split(';').some((part) => part.trim().startsWith(IDENTITY_COOKIE_PREFIX));
}
