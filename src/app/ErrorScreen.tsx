import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';

export const ERROR_SCREEN_TITLE = 'Something went wrong.';
export const ERROR_SCREEN_TEXT =
  'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.';

/** The root error screen of spec/platform.md §2. */
function ErrorScreen() {
  useEffect(() => {
    document.title = `${ERROR_SCREEN_TITLE} | Northfield University`;
  }, []);
  return (
    <main className="error-screen">
      <h1>{ERROR_SCREEN_TITLE}</h1>
      <p>{ERROR_SCREEN_TEXT}</p>
    </main>
  );
}

/** Route-level boundary: logs what went wrong (the text promises it was logged) and shows the screen. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Unhandled error in a route', error);
  }, [error]);
  return <ErrorScreen />;
}
