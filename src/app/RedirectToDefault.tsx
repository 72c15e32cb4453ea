import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { canonicalPath, DEFAULT_FORM_PATH } from '../lib/paths';

/** Unknown paths go to the default form route and keep the query string (spec/platform.md §2). */
export function RedirectToDefault() {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: DEFAULT_FORM_PATH, search, hash }} replace />;
}

/**
 * A route spelled in another case or with a trailing slash goes to the spec's spelling (with its
 * query, hash and state), so one page never has two addresses (and two last-page records).
 */
export function CanonicalPath({ children }: { children: ReactNode }) {
  const { pathname, search, hash, state } = useLocation();
  const canonical = canonicalPath(pathname);
  return canonical ? <Navigate to={{ pathname: canonical, search, hash }} replace state={state as unknown} /> : children;
}
