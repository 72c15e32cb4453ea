import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/**
 * Writes what is typed to the browser's storage at most once every `intervalMs`: the first change
 * at once, the changes after it together when the interval ends, and any still waiting as soon as
 * the page is hidden or left (a reload, a closed tab, a switch to another app). Storage written on
 * every key cost about a fifteenth of a keystroke's script (issue 33); the browser itself puts what a page
 * stores on disk only every few seconds, so a crash loses no more than it did (decision 0030).
 * A write still waiting when the component goes is dropped: a logout has removed what it kept,
 * and a late write would put it back.
 */
export function useCoalescedWrite(write: () => void, intervalMs: number): () => void {
  const latest = useRef(write);
  // The write of the latest committed render: a waiting write reads the answers as they are then.
  useLayoutEffect(() => {
    latest.current = write;
  });
  const pending = useRef<{ timer: ReturnType<typeof setTimeout> | null; last: number }>({ timer: null, last: -Infinity });
  const flush = useCallback(() => {
    if (pending.current.timer !== null) clearTimeout(pending.current.timer);
    pending.current = { timer: null, last: Date.now() };
    latest.current();
  }, []);
  useEffect(() => {
    const whenWaiting = () => {
      if (pending.current.timer !== null) flush();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') whenWaiting();
    };
    window.addEventListener('pagehide', whenWaiting);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', whenWaiting);
      document.removeEventListener('visibilitychange', onVisibility);
      if (pending.current.timer !== null) clearTimeout(pending.current.timer);
      pending.current.timer = null;
    };
  }, [flush]);
  return useCallback(() => {
    if (pending.current.timer !== null) return;
    const wait = pending.current.last + intervalMs - Date.now();
    if (wait <= 0) flush();
    else pending.current.timer = setTimeout(flush, wait);
  }, [flush, intervalMs]);
}
