/**
 * The server's clock for session expiry. Tests of the browser run the page under a fake clock and
 * move this one in step (POST /dev/clock, only where TEST_CLOCK is set outside production).
 */
let offsetMs = 0;

export const clock = {
  now: () => new Date(Date.now() + offsetMs),
  advance(ms: number): Date {
    offsetMs += ms;
    return clock.now();
  },
};
