import { lazy, memo, Suspense, useCallback, useEffect, useState, type MouseEvent } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useMatch, useNavigate } from 'react-router-dom';
import { SESSION_INVALID_MESSAGE } from '../../domain/messages';
import { pages } from '../../domain/catalogue/pages';
import type { PageId } from '../../domain/catalogue/types';
import { FieldSlotsContext, type FieldSlots } from '../features/application/fieldSlots';
import { ApplicationProvider, useAnswers, useApplication } from '../features/application/useApplication';
import { DocumentField } from '../features/documents/DocumentField';
import { TabGroup, useStoredTab } from '../features/documents/TabGroup';
import { useSignOut } from '../features/session/useSignOut';
import { AccountPopover } from '../features/session/AccountPopover';
import { UnauthorizedError } from '../lib/api/errors';
import { AnswersConflictError } from '../features/application/answerConflicts';
import { isLoggedIn } from '../lib/identity';
import { carryOf } from '../lib/navState';
import { useStableHandler } from '../lib/useStableHandler';
import { formHydrated } from '../lib/drawnForm';
import { authPaths, COMPLETION_PATH, DEFAULT_FORM_PATH } from '../lib/paths';
import { Loading } from '../ui/Loading';
import { Button } from '../ui/Button';
import { SiteFooter } from '../ui/SiteFooter';
import { useSuccessToastFromNavigation } from './useSuccessToast';
import { SiteTitle } from '../ui/SiteTitle';

// The recommenders an applicant asks (issue 31), under Final Steps: their own chunk, loaded on that page only.
const Recommenders = lazy(() => import('../features/status/Materials').then((m) => ({ default: m.MyRecommenders })));

/**
 * Under Final Steps' form, the recommenders: asked before submitting, as teachers need weeks.
 * Opened on request, so the page's first moments (hydration, typing into a drawn page) load no
 * chunk and ask the server nothing more: the keystroke race of nothing-lost.spec.ts item 7 showed
 * under load when the section loaded by itself.
 */
function AfterForm({ page }: { page: PageId }) {
  const [open, setOpen] = useState(false);
  if (page !== 'final-steps') return null;
  if (!open) {
    return (
      <p>
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Ask for recommendations now
        </Button>
      </p>
    );
  }
  return (
    <Suspense fallback={<Loading label="Opening your recommendations" />}>
      <Recommenders />
    </Suspense>
  );
}

/** Documents own the upload questions and their tabs, recommenders what follows Final Steps; the form renders them through these slots. */
const fieldSlots: FieldSlots = { DocumentField, TabGroup, useChosenTab: useStoredTab, AfterForm };

/** The root of the form pages (spec/platform.md §2): the application's state, then its layout. */
export function FormRoot() {
  useSuccessToastFromNavigation();
  const loggedIn = isLoggedIn();
  return (
    // Keyed by sign-in state: a logout (or a session end) never leaves one person's typing in the
    // next page, even when a Back press overtakes the navigation to /login.
    <ApplicationProvider key={loggedIn ? 'signed-in' : 'visitor'} loggedIn={loggedIn}>
      <FieldSlotsContext.Provider value={fieldSlots}>
        <FormLayout />
      </FieldSlotsContext.Provider>
    </ApplicationProvider>
  );
}

/**
 * The full-screen spinner while the profile loads, the routing rules of the status, and the
 * layout: header with the account popover, the step navigation, the page, the footer.
 */
function FormLayout() {
  const { ready, loadError, snapshot, setSnapshot, answers: answersStore, saveAnswers, saveBeforeLeavingPage } = useApplication();
  const loggedIn = snapshot.is_logged_in;
  // A visitor's popover carries the answers to the sign-in; signed in, the layout does not read them.
  const visitorAnswers = useAnswers(!loggedIn);
  const location = useLocation();
  const navigate = useNavigate();
  const onCompletion = useMatch(COMPLETION_PATH) !== null;
  const status = snapshot.web_status;

  // A page the server drew has hydrated with this root (its page's effects ran first): what was
  // typed and pressed before the form's code came goes on now. Also when the root only redirects.
  useEffect(() => formHydrated(), []);

  const signOut = useSignOut();
  const onLogout = useCallback(async () => {
    // What was typed is saved first; a failed save does not keep the applicant signed in.
    if (status !== 'submitted') await saveAnswers().catch(() => {});
    await signOut(SESSION_INVALID_MESSAGE);
  }, [signOut, saveAnswers, status]);

  // A step link: a visitor with answers is sent to create an account first; a signed-in applicant's
  // answers are saved and the validations posted first (spec/platform.md §2). One handler for the
  // page's life, so the step links are not drawn again on each key typed.
  const onStep = useStableHandler((event: MouseEvent, path: string) => {
    const answers = answersStore.get();
    if (!loggedIn && Object.keys(answers).length > 0) {
      event.preventDefault();
      navigate(authPaths.signup, { state: { carry: carryOf(answers) } });
    } else if (loggedIn) {
      event.preventDefault();
      // A failed save is left to autosave: the answers stay in memory. A session that ended has
      // taken the applicant to /login instead.
      void saveBeforeLeavingPage().then(
        () => true,
        // Answers changed elsewhere: the dialog asks first.
        (error: unknown) => !(error instanceof UnauthorizedError || error instanceof AnswersConflictError),
      ).then((goOn) => {
        if (!goOn) return;
        setSnapshot({ has_changed_page: true });
        navigate(path, { state: { stepMove: true } });
      });
    }
  });

  // A profile that cannot load is an error for the boundary; a 401 is already on its way to /login.
  if (loadError && !(loadError instanceof UnauthorizedError)) throw loadError;
  if (!ready) return <Loading fullScreen label="Loading your application" />;
  if (status === 'submitted' && !onCompletion) return <Navigate to={{ pathname: COMPLETION_PATH, search: location.search }} replace state={location.state} />;
  if (status !== 'submitted' && onCompletion) return <Navigate to={{ pathname: DEFAULT_FORM_PATH, search: location.search }} replace />;

  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">
        <SiteTitle />
        <AccountPopover loggedIn={loggedIn} username={snapshot.username} answers={visitorAnswers} onLogout={onLogout} />
      </header>
      {/* The completion page has no form header: only the logo line (spec/platform.md §2). */}
      {!onCompletion && <StepNav onStep={onStep} />}
      <main id="main" tabIndex={-1} className="page">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

/** The step links (spec/form.md §2). Memoised: the answers typed do not change them. */
const StepNav = memo(function StepNav({ onStep }: { onStep: (event: MouseEvent, path: string) => void }) {
  return (
    <nav aria-label="Application steps" className="steps">
      <ol>
        {pages.map((step, index) => (
          <li key={step.path}>
            <NavLink to={step.path} className="steps__link" onClick={(event) => onStep(event, step.path)}>
              <span className="steps__number">{index + 1}</span> {step.title}
            </NavLink>
          </li>
        ))}
      </ol>
    </nav>
  );
});
