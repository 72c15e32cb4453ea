import { inactivityTiming } from './ui/inactivity';

const cookie = (name: string) => new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(document.cookie)?.[1];

/**
 * Development only (`npm run dev:mock`): what a mock scenario asks of the page itself, from the
 * cookies its switch sets (mocks/vite-mock.ts): the inactivity clock shortened, so "Still
 * working?" and the sign-out are met in seconds; a script error, so the "Unexpected Error" modal
 * shows. Production never loads this file.
 */
export function applyMockScenario(): void {
  const idleSeconds = Number(cookie('portal_mock_idle'));
  if (idleSeconds > 0) {
    inactivityTiming.timeoutMs = idleSeconds * 1000;
    inactivityTiming.warningMs = Math.min(inactivityTiming.warningMs, Math.max(1000, inactivityTiming.timeoutMs - 2000));
  }
  if (cookie('portal_mock_fail')) {
    // Reported as an uncaught error is (the window's error event), also from a timer that a test's
    // fake clock runs, where a throw would go to the test instead.
    setTimeout(() => reportError(new Error('A script error the mock scenario raised.')), 1000);
  }
}
