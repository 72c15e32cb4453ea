import { Link, Outlet, useLocation } from 'react-router-dom';
import { isLoggedIn } from '../lib/identity';
import { authPaths, DEFAULT_FORM_PATH } from '../lib/paths';
import { partnerConfig } from '../../domain/config';
import { SiteFooter } from './SiteFooter';
import { useSuccessToastFromNavigation } from './useSuccessToast';

/** The root of the account screens (spec/platform.md §2): a centred card under the logo line. */
export function AuthRoot() {
  useSuccessToastFromNavigation();
  const { pathname } = useLocation();
  // Signing in or creating an account while signed in is allowed (another account), but said.
  const signedInHint = isLoggedIn() && (pathname === authPaths.login || pathname === authPaths.signup);
  return (
    <div className="layout layout--auth">
      <header className="site-header">
        <p className="site-header__title">{partnerConfig.applicationTitle}</p>
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
