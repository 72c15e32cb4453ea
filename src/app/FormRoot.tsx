import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { NavLink, Navigate, Outlet, useLocation, useMatch, useNavigate } from 'react-router-dom';
import { accountApi, profileQuery } from '../features/application/api/account';
import { SESSION_INVALID_MESSAGE, UnauthorizedError } from '../lib/api/errors';
import { webStatusMutation } from '../features/application/api/webStatus';
import { partnerConfig } from '../../domain/config';
import { useRestoreSavedAnswers } from '../features/application/useRestoreSavedAnswers';
import { saveBeforeLeavingPage } from '../features/application/saveBeforeLeavingPage';
import { isLoggedIn } from '../lib/identity';
import { registerBeforeAutoLogout } from '../features/session/inactivity';
import { useNavState, type StudentAnswers } from '../lib/navState';
import { Loading } from '../ui/Loading';
import { AccountPopover } from '../features/session/AccountPopover';
import { deriveWebStatus, FormStateContext, numLogins, type ClientSnapshot, type FormStateValue } from '../features/application/formState';
import { authPaths, COMPLETION_PATH, DEFAULT_FORM_PATH, formSteps } from '../lib/paths';
import { SiteFooter } from './SiteFooter';
import { useSuccessToastFromNavigation } from './useSuccessToast';

/**
 * The root of the form pages (spec/platform.md §2): loads the profile first (full-screen spinner),
 * derives the client snapshot, keeps the answers, applies the routing rules, records the last page.
 */
export function FormRoot() {
  useSuccessToastFromNavigation();
  const loggedIn = isLoggedIn();
  const navState = useNavState();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onCompletion = useMatch(COMPLETION_PATH) !== null;
  const profile = useQuery({ ...profileQuery, enabled: loggedIn });
  const { mutate: postStatus } = useMutation(webStatusMutation);

  const [snapshotUpdate, setSnapshotUpdate] = useState<Partial<ClientSnapshot>>({});
  const [answerUpdate, setAnswerUpdate] = useState<StudentAnswers>({});
  const restoredLastPage = useRef(false);

  const snapshot: ClientSnapshot = useMemo(
    () => ({
      username: profile.data?.username ?? null,
      last_page: profile.data?.last_page ?? null,
      is_logged_in: loggedIn,
      is_service_user: false,
      num_logins: numLogins(profile.data),
      has_changed_page: false,
      web_status: profile.data ? deriveWebStatus(profile.data.web_status) : null,
      ...snapshotUpdate,
    }),
    [profile.data, loggedIn, snapshotUpdate],
  );
  const answers = useMemo(
    () => ({ ...(profile.data?.answer ?? {}), ...(navState.answers ?? {}), ...answerUpdate }),
    [profile.data, navState.answers, answerUpdate],
  );
  const setSnapshot = useCallback((update: Partial<ClientSnapshot>) => setSnapshotUpdate((current) => ({ ...current, ...update })), []);
  const setAnswers = useCallback((update: StudentAnswers) => setAnswerUpdate((current) => ({ ...current, ...update })), []);
  const formState: FormStateValue = useMemo(() => ({ snapshot, setSnapshot, answers, setAnswers }), [snapshot, setSnapshot, answers, setAnswers]);

  useRestoreSavedAnswers(loggedIn, setAnswers);

  const ready = !loggedIn || profile.isSuccess;
  const status = snapshot.web_status;

  // A logged-in user without a status is set to started, locally and on the server.
  useEffect(() => {
    if (ready && loggedIn && status === null) {
      setSnapshot({ web_status: 'started' });
      postStatus('started');
    }
  }, [ready, loggedIn, status, setSnapshot, postStatus]);

  // Back to the stored last page once, if the user has not changed page yet.
  useEffect(() => {
    if (!ready || !loggedIn || restoredLastPage.current) return;
    restoredLastPage.current = true;
    const lastPage = profile.data?.last_page;
    if (lastPage && lastPage !== location.pathname && !snapshot.has_changed_page && status !== 'submitted') {
      navigate({ pathname: lastPage, search: location.search }, { replace: true, state: location.state });
    }
  }, [ready, loggedIn]); // eslint-disable-line react-hooks/exhaustive-deps

  // While started or validating, every page visit records the current path as the last page.
  useEffect(() => {
    if (!ready || !loggedIn || !restoredLastPage.current) return;
    if (status === 'started' || status === 'validating') void accountApi.putLastPage(location.pathname).catch(() => {});
  }, [ready, loggedIn, status, location.pathname]);

  // Before an automatic logout the current answers are saved (nothing typed is lost).
  const answersRef = useRef(answers);
  answersRef.current = answers;
  useEffect(() => {
    if (!loggedIn || status === 'submitted') return;
    return registerBeforeAutoLogout(async () => {
      if (Object.keys(answersRef.current).length > 0) await accountApi.putAnswer(answersRef.current);
    });
  }, [loggedIn, status]);

  const logout = useCallback(async () => {
    await accountApi.logout();
    queryClient.clear();
    navigate(authPaths.login, { state: { error: SESSION_INVALID_MESSAGE } });
  }, [navigate, queryClient]);

  // A profile that cannot load is an error for the boundary; a 401 is already on its way to /login.
  if (profile.isError && !(profile.error instanceof UnauthorizedError)) throw profile.error;
  if (!ready) return <Loading fullScreen label="Loading your application" />;
  if (status === 'submitted' && !onCompletion) return <Navigate to={{ pathname: COMPLETION_PATH, search: location.search }} replace state={location.state} />;
  if (status !== 'submitted' && onCompletion) return <Navigate to={{ pathname: DEFAULT_FORM_PATH, search: location.search }} replace />;

  return (
    <FormStateContext.Provider value={formState}>
      <div className="layout">
        <a className="skip-link" href="#main">
          Skip to main content
        </a>
        <header className="site-header">
          <p className="site-header__title">{partnerConfig.applicationTitle}</p>
          <AccountPopover loggedIn={loggedIn} username={snapshot.username} answers={answers} onLogout={logout} />
        </header>
        {/* The completion page has no form header: only the logo line (spec/platform.md §2). */}
        {!onCompletion && (
          <nav aria-label="Application steps" className="steps">
            <ol>
              {formSteps.map((step, index) => (
                <li key={step.path}>
                  <NavLink
                    to={step.path}
                    className="steps__link"
                    onClick={(event) => {
                      // A visitor with answers is sent to create an account first (spec/platform.md §2).
                      if (!loggedIn && Object.keys(answers).length > 0) {
                        event.preventDefault();
                        navigate(authPaths.signup, { state: { answers } });
                      } else if (loggedIn) {
                        // A step link saves the answers and posts the validations first (spec/platform.md §2).
                        event.preventDefault();
                        // A failed save is left to autosave: the answers stay in memory.
                        void saveBeforeLeavingPage(answers, status).catch(() => {}).finally(() => {
                          setSnapshot({ has_changed_page: true });
                          navigate(step.path);
                        });
                      }
                    }}
                  >
                    <span className="steps__number">{index + 1}</span> {step.title}
                  </NavLink>
                </li>
              ))}
            </ol>
          </nav>
        )}
        <main id="main" tabIndex={-1} className="page">
          <Outlet />
        </main>
        <SiteFooter />
      </div>
    </FormStateContext.Provider>
  );
}
