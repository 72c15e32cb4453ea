import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdUntilStarted, leftDrawnPage, releaseHeld, type PrehydrateWindow } from './prehydrate';

type TestWindow = Window & PrehydrateWindow;

/** A fresh document in a frame: the script's listeners and marks stay in it. */
function frame(): TestWindow {
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  const win = iframe.contentWindow as TestWindow;
  win.document.body.innerHTML = '<form><input name="username"><button type="button" id="show">Show</button><button type="submit" id="go">Sign In</button></form>';
  return win;
}

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('presses before the app has started (a page rendered ahead)', () => {
  it('are held, kept from the page, and done again in order once it runs', async () => {
    const win = frame();
    holdUntilStarted(win);
    const form = win.document.querySelector('form')!;
    const seen: string[] = [];
    // Stands for the app's handlers, which must not see a press before the app has started.
    form.addEventListener('click', (event) => seen.push(`click ${(event.target as Element).id}`));
    form.addEventListener('submit', (event) => {
      seen.push(`submit defaultPrevented=${event.defaultPrevented}`);
      event.preventDefault();
    });

    win.document.getElementById('show')!.click();
    form.requestSubmit();
    expect(seen).toEqual([]);

    vi.useFakeTimers();
    releaseHeld(win);
    expect(win.portalStarted).toBe(true);
    vi.runAllTimers();
    expect(seen).toEqual(['click show', 'submit defaultPrevented=false']);
  });

  it('are done again one a task, so the app draws after each before the next', () => {
    const win = frame();
    holdUntilStarted(win);
    const button = win.document.getElementById('show')!;
    button.click();
    button.click();
    const clicks = vi.fn();
    button.addEventListener('click', clicks);
    vi.useFakeTimers();
    releaseHeld(win);
    vi.advanceTimersToNextTimer();
    expect(clicks).toHaveBeenCalledTimes(1);
    vi.advanceTimersToNextTimer();
    expect(clicks).toHaveBeenCalledTimes(2);
  });

  it('go straight to the app once it has started, and nothing is done twice', () => {
    const win = frame();
    holdUntilStarted(win);
    releaseHeld(win);
    const button = win.document.getElementById('show')!;
    const clicks = vi.fn();
    button.addEventListener('click', clicks);
    button.click();
    expect(clicks).toHaveBeenCalledTimes(1);
    releaseHeld(win);
    expect(clicks).toHaveBeenCalledTimes(1);
  });

  it('wait on a page the server drew for its form, or until the app leaves it (a sign-out, an error screen)', () => {
    const win = frame();
    holdUntilStarted(win);
    win.portalDrawnForm = true;
    const button = win.document.getElementById('show')!;
    const clicks = vi.fn();
    button.addEventListener('click', clicks);
    button.click();
    vi.useFakeTimers();
    // The app's first commit: the form's code has not come yet.
    releaseHeld(win);
    vi.runAllTimers();
    expect(win.portalStarted).toBeUndefined();
    expect(clicks).not.toHaveBeenCalled();
    leftDrawnPage(win);
    vi.runAllTimers();
    expect(win.portalStarted).toBe(true);
    expect(clicks).toHaveBeenCalledTimes(1);
  });
});
