import { Component, useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { partnerConfig } from '../../domain/config';
import { api } from '../lib/api/client';
import { DEFAULT_FORM_PATH } from '../lib/paths';
import { leftDrawnPage } from '../lib/prehydrate';
import { SiteFooter } from '../ui/SiteFooter';
import { SiteTitle } from '../ui/SiteTitle';

export const ERROR_SCREEN_TITLE = 'Something went wrong.';
export const ERROR_SCREEN_TEXT =
  'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.';

const text = (value: unknown, max: number) => String(value ?? '').slice(0, max);

/** Sends what went wrong to the server's log, once; a failure to report changes nothing on screen. */
export function sendErrorReport(error: unknown, path: string) {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : text(error, 2000) || 'Unknown error';
  const stack = error instanceof Error ? text(error.stack, 8000) : undefined;
  void api
    .POST('/public/client-errors', { body: { message: text(message, 2000), path: text(path, 2000), ...(stack ? { stack } : {}) } })
    .catch(() => {});
}

/**
 * The root error screen of spec/platform.md §2: the spec's words, the site header, and a way on:
 * try the page again, or go back to the application (a full load, so the broken state is gone).
 */
function ErrorScreen() {
  useEffect(() => {
    document.title = `${ERROR_SCREEN_TITLE} | ${partnerConfig.applicationTitle}`;
    leftDrawnPage(); // its buttons take presses at once
  }, []);
  return (
    <div className="layout">
      <header className="site-header">
        <SiteTitle />
      </header>
      <main id="main" tabIndex={-1} className="page error-screen">
        <h1>{ERROR_SCREEN_TITLE}</h1>
        <p>{ERROR_SCREEN_TEXT}</p>
        <p className="error-screen__actions">
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            Try again
          </button>
          <a className="button button--secondary" href={DEFAULT_FORM_PATH}>
            Back to your application
          </a>
        </p>
      </main>
      <SiteFooter />
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
}

/**
 * The app's error boundary: reports what went wrong to the server (the text promises it was
 * logged) and shows the screen; a navigation to another path tries the page again.
 */
export function RouteErrorBoundary({ children }: BoundaryProps) {
  const { pathname } = useLocation();
  return (
    <PathErrorBoundary pathname={pathname}>
      {children}
    </PathErrorBoundary>
  );
}

class PathErrorBoundary extends Component<BoundaryProps & { pathname: string }, { error: unknown; at: string }> {
  override state = { error: null as unknown, at: this.props.pathname };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  /** The screen stays for the path it broke on; another path renders afresh. */
  static getDerivedStateFromProps(props: { pathname: string }, state: { at: string }) {
    return state.at === props.pathname ? null : { error: null, at: props.pathname };
  }

  override componentDidCatch(error: unknown) {
    console.error('Unhandled error in a route', error);
    sendErrorReport(error, this.props.pathname);
  }

  override render() {
    return this.state.error !== null ? <ErrorScreen /> : this.props.children;
  }
}
