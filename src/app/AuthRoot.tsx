import { Outlet } from 'react-router-dom';
import { partnerConfig } from '../../domain/config';
import { SiteFooter } from './SiteFooter';
import { useSuccessToastFromNavigation } from './useSuccessToast';

/** The root of the account screens (spec/platform.md §2): a centred card under the logo line. */
export function AuthRoot() {
  useSuccessToastFromNavigation();
  return (
    <div className="layout layout--auth">
      <header className="site-header">
        <p className="site-header__title">{partnerConfig.applicationTitle}</p>
      </header>
      <main id="main" tabIndex={-1} className="auth-card">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
