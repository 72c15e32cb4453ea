import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCoalescedWrite } from './useCoalescedWrite';

/** The hook over a write that records the value it finds when it runs (as the drafts' write reads the answers then). */
function coalesced(intervalMs = 500) {
  const written: string[] = [];
  let value = '';
  const { result, unmount } = renderHook(() => useCoalescedWrite(() => written.push(value), intervalMs));
  const type = (next: string) => {
    value = next;
    result.current();
  };
  return { written, type, unmount };
}

const hide = (state: 'hidden' | 'visible') => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
};

describe('useCoalescedWrite', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => {
    vi.useRealTimers();
    hide('visible');
  });

  it('writes the first change at once and the changes after it together, with the latest value, when the interval ends', () => {
    const { written, type } = coalesced();
    type('a');
    expect(written).toEqual(['a']);
    type('ab');
    type('abc');
    expect(written).toEqual(['a']);
    vi.advanceTimersByTime(499);
    expect(written).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(written).toEqual(['a', 'abc']);
    // A change after a quiet interval is written at once again.
    vi.advanceTimersByTime(600);
    type('abcd');
    expect(written).toEqual(['a', 'abc', 'abcd']);
  });

  it('writes what is waiting as soon as the page is left or hidden, and nothing when nothing waits', () => {
    const { written, type } = coalesced();
    type('a');
    type('ab');
    window.dispatchEvent(new Event('pagehide'));
    expect(written).toEqual(['a', 'ab']);
    vi.advanceTimersByTime(1_000);
    expect(written).toEqual(['a', 'ab']);

    type('abc');
    type('abcd');
    hide('hidden');
    expect(written).toEqual(['a', 'ab', 'abc', 'abcd']);
    window.dispatchEvent(new Event('pagehide'));
    expect(written).toEqual(['a', 'ab', 'abc', 'abcd']);
  });

  it('drops a write still waiting when the component goes: a logout has removed what was kept', () => {
    const { written, type, unmount } = coalesced();
    type('a');
    type('ab');
    unmount();
    vi.advanceTimersByTime(1_000);
    window.dispatchEvent(new Event('pagehide'));
    expect(written).toEqual(['a']);
  });
});
