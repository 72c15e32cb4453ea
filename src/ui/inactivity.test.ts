import { describe, expect, it } from 'vitest';
import { countdownAnnouncement, idleTooLong, inactivityPhase, LAST_ACTIVITY_KEY } from './inactivity';

describe('inactivity timings (spec/platform.md §4, §9)', () => {
  it.each([
    [0, { kind: 'active' }],
    [839_999, { kind: 'active' }],
    [840_000, { kind: 'warning', secondsLeft: 60 }],
    [870_500, { kind: 'warning', secondsLeft: 30 }],
    [899_999, { kind: 'warning', secondsLeft: 1 }],
    [900_000, { kind: 'expired' }],
    [3_600_000, { kind: 'expired' }],
  ])('after %i ms idle the phase is %j', (idle, phase) => {
    expect(inactivityPhase(idle)).toEqual(phase);
  });

  it('announces the countdown at most every 20 s', () => {
    const said = Array.from({ length: 60 }, (_, i) => 60 - i).filter((s) => countdownAnnouncement(s) !== null);
    expect(said).toEqual([60, 40, 20]);
    expect(countdownAnnouncement(40)).toBe('You will be signed out in 40 seconds.');
  });

  it('tells a session ended by the timer (a sleep, a frozen tab) from any other end, by the shared last activity (issue 28)', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    localStorage.setItem(LAST_ACTIVITY_KEY, String(now - 17 * 60_000));
    expect(idleTooLong(LAST_ACTIVITY_KEY, now)).toBe(true);
    localStorage.setItem(LAST_ACTIVITY_KEY, String(now - 14 * 60_000));
    expect(idleTooLong(LAST_ACTIVITY_KEY, now)).toBe(false);
    localStorage.removeItem(LAST_ACTIVITY_KEY);
    expect(idleTooLong(LAST_ACTIVITY_KEY, now)).toBe(false);
  });
});
