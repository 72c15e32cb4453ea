/** What the holding script and the app tell each other, on `window`. */
export interface PrehydrateWindow {
  portalStarted?: boolean;
  portalHeld?: (() => void)[];
}

/**
 * Runs before the app's code on a page rendered ahead (the sign-in screens; scripts/prerender.ts
 * writes it to a file of its own, a classic script in the head fetched beside the styles, so the
 * page cannot be used before it has run). Until the app has started, a press of a button would do
 * nothing, and a submit (Enter in a field, the submit button) would be the browser's own: a GET with
 * the password in the address. Both are held instead, kept from the app's half-started handlers,
 * and done again, in order, once the app runs (`releaseHeld`). Links are left to the browser.
 * Self-contained: its text is the script.
 */
export function holdUntilStarted(win: Window & PrehydrateWindow) {
  const held: (() => void)[] = (win.portalHeld = []);
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
  win.portalStarted = true;
  const held = win.portalHeld?.splice(0);
  if (held?.length) win.setTimeout(() => held.forEach((again) => again()));
}
