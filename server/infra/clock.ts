import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The server's clock for session expiry and staff codes. Tests of the browser run the page under a
 * fake clock and move this one in step (POST /dev/clock, only where NODE_ENV is test). Browser
 * tests run side by side on one server, so a test moves a clock of its own: its requests name it
 * (the X-Test-Clock header, read only on a test server) and see their own time; a request that
 * names none sees the shared one, which the server's own tests move directly.
 */
let sharedOffsetMs = 0;
const namedOffsetsMs = new Map<string, number>();
const namedClock = new AsyncLocalStorage<string>();

const offsetMs = () => {
  const name = namedClock.getStore();
  return name === undefined ? sharedOffsetMs : (namedOffsetsMs.get(name) ?? 0);
};

export const clock = {
  now: () => new Date(Date.now() + offsetMs()),
  /** Moves the clock the current request reads (its own, or the shared one) by `ms`. */
  advance(ms: number): Date {
    const name = namedClock.getStore();
    if (name === undefined) sharedOffsetMs += ms;
    else namedOffsetsMs.set(name, (namedOffsetsMs.get(name) ?? 0) + ms);
    return clock.now();
  },
  /** Runs `work`, and everything it starts, on the clock called `name`. */
  runOn<T>(name: string, work: () => T): T {
    return namedClock.run(name, work);
  },
};

/** The request header that names a browser test's own clock. */
export const TEST_CLOCK_HEADER = 'x-test-clock';
