import { NavGroup } from './NavGroup';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, type ReactNode } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate, useOutletContext } from 'react-router-dom';
import { staffMessages, staffRoleCovers } from '../../../../domain/staff';
import { ServerError } from '../../../lib/api/errors';
import { Button } from '../../../ui/Button';
import { IdleTimeout } from '../../../ui/IdleTimeout';
import { INACTIVITY_LOGOUT_MESSAGE } from '../../../ui/inactivity';
import { Loading } from '../../../ui/Loading';
import { staffKeepAlive, staffLogout, staffMeQuery, type StaffMe } from './api/session';
import { MY_QUEUE, STAFF_ACTIVITY_KEY, STAFF_HOME, STAFF_LOGIN } from '../paths';

const isEnded = (error: unknown) => error instanceof ServerError && error.status === 401;

/** The signed-in staff member, for the console's pages. */
export const useStaffMe = () => useOutletContext<StaffMe>();

/** The administrator's pages of the office's set-up, grouped in the menu under Settings. */
const SETTINGS = [
  { to: '/staff/review-form', label: 'Review form' },
  { to: '/staff/composite', label: 'Composite score' },
  { to: '/staff/bins', label: 'Bins' },
  { to: '/staff/reply-dates', label: 'Reply dates' },
  { to: '/staff/checklist', label: 'Checklist' },
  { to: '/staff/retention', label: 'Retention' },
  { to: '/staff/conflicts', label: 'Conflicts' },
  { to: '/staff/people', label: 'Staff' },
  { to: '/staff/audit', label: 'Audit log' },
] as const;

/**
 * The console around its pages: who is signed in, the navigation (the admin's pages for admins
 * only), sign-out and the 15-minute idle timer. Any staff call answered 401 (the session ended on
 * the server) clears what the console holds and opens the sign-in page with the reason.
 */
export function SignedInConsole() {
  const me = useQuery(staffMeQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  const leave = useCallback(
    (message: string) => {
      queryClient.clear();
      void navigate(STAFF_LOGIN, { state: { error: message } });
    },
    [navigate, queryClient],
  );

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'error' && isEnded(event.action.error) && event.query.queryKey[1] !== '/staff/api/me') leave(staffMessages.sessionEnded);
      }),
    [queryClient, leave],
  );

  const signOut = useCallback(
    async (message: string) => {
      await staffLogout().catch(() => {}); // signed out here whatever the server says: it ends the session itself when idle
      leave(message);
    },
    [leave],
  );
  const expire = useCallback(() => signOut(INACTIVITY_LOGOUT_MESSAGE), [signOut]);

  if (me.isPending) return <Loading fullScreen label="Loading the console" />;
  if (me.isError) {
    if (isEnded(me.error)) return <Navigate to={STAFF_LOGIN} replace state={{ from: location.pathname + location.search }} />;
    return (
      <main className="staff-page" id="main">
        <h1>Admissions office</h1>
        <p role="alert">{me.error?.message}</p>
      </main>
    );
  }

  const admin = me.data.role === 'admin';
  const inQueue = new URLSearchParams(location.search).get('queue') === 'mine';
  const decider = staffRoleCovers(me.data.role, 'decider');
  return (
    <IdleTimeout loggedIn activityKey={STAFF_ACTIVITY_KEY} keepAlive={staffKeepAlive} signOut={expire} pageKey={location.key}>
      <div className="staff">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="staff-header">
          <p className="staff-header__title">Admissions office</p>
          <nav aria-label="Console" className="staff-nav">
            <ul>
              {/* One path, two lists: the address's `queue` tells which is the page shown. */}
              <li><NavLink to={STAFF_HOME} end className={({ isActive }) => (isActive && !inQueue ? 'active' : '')} aria-current={inQueue ? 'false' : 'page'}>Applications</NavLink></li>
              <li><NavLink to={MY_QUEUE} end className={({ isActive }) => (isActive && inQueue ? 'active' : '')} aria-current={inQueue ? 'page' : 'false'}>My queue</NavLink></li>
              <li><NavLink to="/staff/dashboard">Dashboard</NavLink></li>
              <li><NavLink to="/staff/reports">Reports</NavLink></li>
              {decider && <li><NavLink to="/staff/committee">Committee</NavLink></li>}
              {decider && <li><NavLink to="/staff/decisions">Decisions</NavLink></li>}
              {decider && <li><NavLink to="/staff/duplicates">Duplicates</NavLink></li>}
              {decider && <li><NavLink to="/staff/letters">Letters</NavLink></li>}
              {admin && <li><NavLink to="/staff/export">Export</NavLink></li>}
              {admin && (
                <NavGroup label="Settings" paths={SETTINGS.map((item) => item.to)}>
                  {SETTINGS.map((item) => (
                    <li key={item.to}><NavLink to={item.to}>{item.label}</NavLink></li>
                  ))}
                </NavGroup>
              )}
            </ul>
          </nav>
          <div className="staff-header__who">
            <span>
              {me.data.email} <span className="staff-role">({me.data.role})</span>
            </span>
            <Button variant="secondary" onClick={() => void signOut(staffMessages.signedOut)}>
              Sign out
            </Button>
          </div>
        </header>
        <main className="staff-page" id="main" tabIndex={-1}>
          <Outlet context={me.data} />
        </main>
      </div>
    </IdleTimeout>
  );
}

/** A page for a role and those above it: anyone else who follows a link to it is told so (the server refuses them too). */
export function RoleOnly({ role, children }: { role: 'decider' | 'admin'; children: ReactNode }) {
  const me = useStaffMe();
  if (!staffRoleCovers(me.role, role)) {
    return (
      <>
        <h1>Not available</h1>
        <p>{role === 'admin' ? staffMessages.adminOnly : staffMessages.deciderOnly}</p>
      </>
    );
  }
  return children;
}
