import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { InactivityGuard } from '../features/session/InactivityGuard';
import { ConfirmScreen } from '../features/auth/ConfirmScreen';
import { ForgotScreen } from '../features/auth/ForgotScreen';
import { LoginScreen } from '../features/auth/LoginScreen';
import { ResetScreen } from '../features/auth/ResetScreen';
import { SignupScreen } from '../features/auth/SignupScreen';
import { AuthRoot } from './AuthRoot';
import { RouteErrorBoundary } from './ErrorScreen';
import { CanonicalPath, RedirectToDefault } from './RedirectToDefault';
import { pages } from '../../domain/catalogue/pages';
import type { PageId } from '../../domain/catalogue/types';
import { authPaths, COMPLETION_PATH } from '../lib/paths';

// The form, its catalogue and engine, the lookups and the print view load only when a form route
// is opened: the sign-in screens (what a phone loads first) carry none of them. The server announces
// these two modules' chunks with a form page (server/http/clientPage.ts: keep the two lists alike).
const formRootCode = () => import('./FormOrPrintRoot');
const formPageCode = () => import('../features/application/FormPage');
const FormOrPrintRoot = lazy(() => formRootCode().then((m) => ({ default: m.FormOrPrintRoot })));
const FormPage = lazy(() => formPageCode().then((m) => ({ default: m.FormPage })));

/** Starts loading the form's code at once, side by side (not the page's chunk after its root's). */
export function preloadFormCode() {
  void formRootCode();
  void formPageCode();
}
// The admissions office's console: its own chunk, which no applicant's page loads.
const StaffApp = lazy(() => import('../features/staff/StaffApp').then((m) => ({ default: m.StaffApp })));
const CompletionPage = lazy(() => import('../features/application/CompletionPage').then((m) => ({ default: m.CompletionPage })));
const PdfCopy = lazy(() => import('../features/documents/PdfCopy').then((m) => ({ default: m.PdfCopy })));
const DecisionStatus = lazy(() => import('../features/status/DecisionStatus').then((m) => ({ default: m.DecisionStatus })));
const ApplicantMaterials = lazy(() => import('../features/status/Materials').then((m) => ({ default: m.ApplicantMaterials })));
// A recommender's page: no account, no form; its own small chunk.
const RecommenderPage = lazy(() => import('../features/recommend/RecommenderPage').then((m) => ({ default: m.RecommenderPage })));

type ScreenName = 'login' | 'signup' | 'confirm' | 'forgot' | 'reset' | PageId | 'completion';

const defaultScreens: Record<ScreenName, ReactNode> = {
  login: <LoginScreen />,
  signup: <SignupScreen />,
  confirm: <ConfirmScreen />,
  forgot: <ForgotScreen />,
  reset: <ResetScreen />,
  about: <FormPage page="about" />,
  education: <FormPage page="education" />,
  'final-steps': <FormPage page="final-steps" />,
  completion: <CompletionPage pdfCopy={<PdfCopy />} status={<DecisionStatus />} materials={<ApplicantMaterials />} />,
};

/**
 * The app's routes under a declarative router (BrowserRouter, or MemoryRouter in tests): the data
 * router's extra 16 kB (gzip) bought nothing here, and /login's first load is the budget's edge.
 */
const NO_SWAPS: Partial<Record<ScreenName, ReactNode>> = {};

export function AppRoutes({ screens = NO_SWAPS }: { screens?: Partial<Record<ScreenName, ReactNode>> }) {
  const routes = useMemo(() => makeRoutes(screens), [screens]);
  return useRoutes(routes);
}

/**
 * The route tree: a form root and an auth root (spec/platform.md §2), and every other path
 * redirected to the default form route with its query string. `screens` lets tests swap a screen.
 */
function makeRoutes(screens: Partial<Record<ScreenName, ReactNode>> = {}): RouteObject[] {
  const screen = (name: ScreenName) => screens[name] ?? defaultScreens[name];
  return [
    {
      // The console has its own timer, session and error screens.
      path: 'staff/*',
      element: (
        <RouteErrorBoundary>
          <Suspense fallback={null}>
            <StaffApp />
          </Suspense>
        </RouteErrorBoundary>
      ),
    },
    {
      // A recommender's link (issue 31): no session, so no inactivity timer.
      path: 'recommend',
      element: (
        <RouteErrorBoundary>
          <Suspense fallback={null}>
            <RecommenderPage />
          </Suspense>
        </RouteErrorBoundary>
      ),
    },
    {
      // The inactivity timer wraps both the form and the auth pages (spec/platform.md §4).
      element: (
        <RouteErrorBoundary>
          <InactivityGuard>
            <CanonicalPath>
              <Outlet />
            </CanonicalPath>
          </InactivityGuard>
        </RouteErrorBoundary>
      ),
      children: [
        {
          element: (
            <Suspense fallback={null}>
              <FormOrPrintRoot />
            </Suspense>
          ),
          children: [
            ...pages.map((page) => ({ path: page.path, element: screen(page.id) })),
            { path: COMPLETION_PATH, element: screen('completion') },
          ],
        },
        {
          element: <AuthRoot />,
          children: [
            { path: authPaths.login, element: screen('login') },
            { path: authPaths.signup, element: screen('signup') },
            { path: authPaths.confirm, element: screen('confirm') },
            { path: authPaths.forgot, element: screen('forgot') },
            { path: authPaths.reset, element: screen('reset') },
          ],
        },
        { path: '*', element: <RedirectToDefault /> },
      ],
    },
  ];
}
