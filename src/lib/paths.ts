import { pages } from '../../domain/catalogue/pages';

/** The routes of spec/platform.md §2; the form's steps and their titles come from the catalogue's pages. */
export const COMPLETION_PATH = '/completion';
export const DEFAULT_FORM_PATH = pages[0]!.path;
export const authPaths = { login: '/login', signup: '/signup', confirm: '/confirm', forgot: '/forgot', reset: '/reset' } as const;

/** Every route of the app, as written in the spec. */
const knownPaths: readonly string[] = [...pages.map((page) => page.path), COMPLETION_PATH, ...Object.values(authPaths)];

/**
 * The spec's spelling of a path that differs only in case or a trailing slash (`/ABOUT`, `/about/`),
 * or null when the path is already one of them or is none of them.
 */
export function canonicalPath(pathname: string): string | null {
  if (knownPaths.includes(pathname)) return null;
  const spelled = pathname.toLowerCase().replace(/\/+$/, '');
  return knownPaths.includes(spelled) ? spelled : null;
}
