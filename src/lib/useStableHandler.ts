import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A handler that keeps its identity across renders and runs the latest render's function, so a
 * memoised child keeps its props while what the handler reads (the page's answers) moves on.
 * For events only: the latest function is in place once its render has committed.
 */
export function useStableHandler<A extends unknown[]>(handler: (...args: A) => void): (...args: A) => void {
  const latest = useRef(handler);
  // Not an event handler run by an effect: the ref follows the committed render, nothing else.
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
