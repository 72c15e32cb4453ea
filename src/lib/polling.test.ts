// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { MAX_POLL_BACKOFF_MS, pollDelay } from './polling';

describe('pollDelay', () => {
  it('keeps the interval while calls succeed, doubles it per failure in a row, and stops at a minute', () => {
    expect(pollDelay(1_000, 0)).toBe(1_000);
    expect(pollDelay(1_000, 1)).toBe(2_000);
    expect(pollDelay(1_000, 3)).toBe(8_000);
    expect(pollDelay(1_000, 12)).toBe(MAX_POLL_BACKOFF_MS);
    expect(pollDelay(2_000, 40)).toBe(MAX_POLL_BACKOFF_MS);
  });

  it('never shortens an interval already longer than the cap', () => {
    expect(pollDelay(600_000, 2)).toBe(600_000);
  });
});
