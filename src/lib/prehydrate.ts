/** What the holding script and the app tell each other, on `window`. */
export interface PrehydrateWindow {
  portalStarted?: boolean;
  portalHeld?: (() => void)[];
  /** What each field was changed to before the start (the last change of each), by the holding script. */
  portalTyped?: Map<Element, string | boolean>;
  /** A form page drawn by the server is being hydrated: the form itself starts the app (`formHydrated`). */
  portalDrawnForm?: boolean;
}

/**
 * Runs before the app's code on a page drawn ahead: the sign-in screens, and a signed-in form page
 * (server/http/signedInPage.ts). scripts/prerender.ts puts its text in the page, first in the head
 * (allowed by its hash in the Content-Security-Policy), so it has run before the page can be used.
 * Until the app has started, a press of a button would do nothing, and a submit (Enter in a field,
 * the submit button) would be the browser's own: a GET with the password in the address. Both are
 * held instead, kept from the app's half-started handlers, and done again, in order, once the app
 * runs (`releaseHeld`). Links are left to the browser. What is typed is noted too, field by field
 * (`formHydrated` hands it to the form). Self-contained: its text is the script.
 */
export function holdUntilStarted(win: Window & PrehydrateWindow) {
  const held: (() => void)[] = (win.portalHeld = []);
  const typed: Map<Element, string | boolean> = (win.portalTyped = new Map());
  const note = (event: Event) => {
    if (win.portalStarted) return;
    const field = event.target as HTMLInputElement;
    typed.delete(field); // kept in the order of the last changes
    typed.set(field, field.type === 'checkbox' || field.type === 'radio' ? field.checked : field.value);
  };
  win.document.addEventListener('input', note, true);
  win.document.addEventListener('change', note, true);
  const hold = (event: Event, again: () => void) => {
    if (win.portalStarted) return;
    event.preventDefault();
    event.stopPropagation();
    held.push(again);
  };
  win.document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest?.('button');
      if (button) hold(event, () => button.isConnected && button.click());
    },
    true,
  );
  win.document.addEventListener(
    'submit',
    (event) => {
      const form = event.target as HTMLFormElement;
      hold(event, () => form.isConnected && form.requestSubmit());
    },
    true,
  );
}

/**
 * The app has started (its first commit): presses go to it from now on, and those held before are
 * done again, after the render that took in what was typed before the start.
 */
export function releaseHeld(win: Window & PrehydrateWindow = window): void {
  // The form's own code comes after the app's: its buttons take presses once it has hydrated.
  if (win.portalDrawnForm) return;
  win.portalStarted = true;
  win.portalTyped?.clear(); // taken in by the screen itself (useAuthForm), or by the drawn form
  const held = win.portalHeld?.splice(0);
  // One press a task, as they came: two done in one task would both run on the render before
  // either (two presses of Add another sibling added one, form.spec.ts).
  const next = () => {
    const again = held?.shift();
    if (!again) return;
    again();
    win.setTimeout(next);
  };
  if (held?.length) win.setTimeout(next);
}

/**
 * The app left a drawn form page before its form ran (the inactivity timer's sign-out, an error
 * screen): the fields typed in are gone, and presses go to what is there now.
 */
export function leftDrawnPage(win: Window & PrehydrateWindow = window): void {
  if (!win.portalDrawnForm) return;
  win.portalDrawnForm = false;
  releaseHeld(win);
}
