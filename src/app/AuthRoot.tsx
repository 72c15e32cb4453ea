import { Link, Outlet, useLocation } from 'react-router-dom';
import { isLoggedIn } from '../lib/identity';
import { authPaths, DEFAULT_FORM_PATH } from '../lib/paths';
import { SiteFooter } from '../ui/SiteFooter';
import { useSuccessToastFromNavigation } from './useSuccessToast';
import { SiteTitle } from '../ui/SiteTitle';

/** The root of the account screens (spec/platform.md §2): a centred card under the logo line. */
export function AuthRoot() {
  useSuccessToastFromNavigation();
  const { pathname } = useLocation();
  // Signing in or creating an account while signed in is allowed (another account), but said.
  const signedInHint = isLoggedIn() && (pathname === authPaths.login || pathname === authPaths.signup);
  return (
    <div className="layout layout--auth">
      <header className="site-header">
        <SiteTitle />
      </header>
      <main id="main" tabIndex={-1} className="auth-card">
        {signedInHint && (
          <p className="notice">
            You are already signed in. <Link to={DEFAULT_FORM_PATH}>Go back to your application</Link>, or {pathname === authPaths.login ? "sign in to" : "create"} another account below.
          </p>
        )}
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
