import { Navigate, useLocation } from 'react-router-dom';
import { DEFAULT_FORM_PATH } from '../lib/paths';

/** Unknown paths go to the default form route and keep the query string (spec/platform.md §2). */
export function RedirectToDefault() {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: DEFAULT_FORM_PATH, search, hash }} replace />;
}
