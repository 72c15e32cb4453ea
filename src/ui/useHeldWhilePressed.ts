import { useEffect, useState } from 'react';

/**
 * Whether a pointer (mouse, pen or finger) is pressed. A tap presses twice: once as a pointer, then
 * again as the mouse events the browser sends with the click; a release settles either.
 */
const pointer = { pressed: false };
const settling = new Set<() => void>();

if (typeof window !== 'undefined') {
  const press = () => {
    pointer.pressed = true;
  };
  // After the release the browser still delivers the click: settle in the next task, after it.
  const release = () => {
    pointer.pressed = false;
    setTimeout(() => {
      for (const settle of [...settling]) settle();
    });
  };
  for (const name of ['pointerdown', 'mousedown'] as const) window.addEventListener(name, press, { capture: true, passive: true });
  for (const name of ['pointerup', 'mouseup', 'pointercancel'] as const) window.addEventListener(name, release, { capture: true, passive: true });
}

/**
 * `value` as it was before the pointer went down, until it is released and its click has landed.
 * A message that appears or goes when a text area loses focus to a click would otherwise move the
 * page under the pointer, and the click would miss (spec: nothing the applicant does is lost).
 * Compared by content (JSON), so a new but equal object is no change.
 */
export function useHeldWhilePressed<T>(value: T): T {
  const [held, setHeld] = useState(value);
  const changed = JSON.stringify(held) !== JSON.stringify(value);
  useEffect(() => {
    if (!changed) return;
    if (!pointer.pressed) {
      setHeld(value);
      return;
    }
    const settle = () => setHeld(value);
    settling.add(settle);
    return () => {
      settling.delete(settle);
    };
  }, [changed, value]);
  return changed && pointer.pressed ? held : value;
}
