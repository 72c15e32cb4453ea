import { useCallback, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { runBeforeAutoLogout } from '../../lib/beforeLogout';
import { isLoggedIn } from '../../lib/identity';
import { IdleTimeout } from '../../ui/IdleTimeout';
import { INACTIVITY_LOGOUT_MESSAGE, LAST_ACTIVITY_KEY } from '../../ui/inactivity';
import { keepAlive } from './api/keepAlive';
import { sessionLastActive } from './api/session';
import { useSignOut } from './useSignOut';

/**
 * The applicant's inactivity timer (spec/platform.md §4): wraps the form and the auth pages; what
 * was typed is saved before the sign-out.
 */
export function InactivityGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const signOut = useSignOut();
  const expire = useCallback(async () => {
    await runBeforeAutoLogout();
    // Signed out whatever the logout call answers: the timer has run out.
    await signOut(INACTIVITY_LOGOUT_MESSAGE, { ignoreFailure: true, reason: 'inactivity' });
  }, [signOut]);
  return (
    <IdleTimeout loggedIn={isLoggedIn()} activityKey={LAST_ACTIVITY_KEY} keepAlive={keepAlive} signOut={expire} lastActiveOnServer={sessionLastActive} pageKey={location.key}>
      {children}
    </IdleTimeout>
  );
}
