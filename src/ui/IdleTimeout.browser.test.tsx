import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { IdleTimeout } from './IdleTimeout';
import { inactivityTiming } from './inactivity';

const KEY = 'test.lastActivity';

/**
 * A tab that sat idle past the timeout while the applicant worked in another tab (issue 48): the
 * first tick after it wakes reads a stale shared activity. It asks the server before signing out.
 */
describe('the inactivity sign-out is the account’s, across tabs', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => vi.useRealTimers());

  async function idleTab(lastActiveOnServer: () => Promise<number | null>) {
    const signOut = vi.fn(async () => {});
    const screen = await render(
      <IdleTimeout loggedIn activityKey={KEY} keepAlive={async () => ({})} signOut={signOut} lastActiveOnServer={lastActiveOnServer}>
        <p>Form</p>
      </IdleTimeout>,
    );
    // Asleep for fifteen minutes (a phone's background tab): then its next tick, with no news from the other tabs.
    vi.setSystemTime(Date.now() + inactivityTiming.timeoutMs + 1_000);
    await vi.advanceTimersByTimeAsync(inactivityTiming.tickMs);
    return { signOut, screen };
  }

  it('stays signed in when another tab used the session a minute ago, and closes the warning', async () => {
    const server = vi.fn(async () => Date.now() - 60_000);
    const { signOut, screen } = await idleTab(server);
    expect(server).toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    await expect.element(screen.getByRole('dialog', { name: 'Still working?' })).not.toBeInTheDocument();
  });

  it('signs out when the session was idle everywhere', async () => {
    const { signOut } = await idleTab(async () => Date.now() - inactivityTiming.timeoutMs - 60_000);
    expect(signOut).toHaveBeenCalled();
  });

  it('signs out when the session has ended, or when the server cannot be asked (the tab’s own reading decides)', async () => {
    expect((await idleTab(async () => null)).signOut).toHaveBeenCalled();
    localStorage.clear();
    expect((await idleTab(() => Promise.reject(new Error('offline')))).signOut).toHaveBeenCalled();
  });
});
