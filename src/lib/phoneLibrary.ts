import { useEffect, useSyncExternalStore } from 'react';
import { hasPhoneLibrary, setPhoneLibrary } from '../../domain/rules/formats';

const listeners = new Set<() => void>();
let loading: Promise<void> | null = null;

/** Loads every country's numbering plan (29 kB gzipped) once, the first time a number from abroad is seen. */
function loadPhoneLibrary(): Promise<void> {
  loading ??= import('libphonenumber-js/min').then(({ isValidPhoneNumber, parsePhoneNumberFromString }) => {
    setPhoneLibrary({
      isValid: (e164) => isValidPhoneNumber(e164),
      format: (e164) => parsePhoneNumberFromString(e164)?.formatInternational() ?? e164,
    });
    listeners.forEach((listener) => listener());
  });
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Whether the numbering plans are in; loads them when `needed` (a phone starting with '+'). The
 * page draws again once they are, with numbers from abroad checked and grouped.
 */
export function usePhoneLibrary(needed: boolean): boolean {
  const loaded = useSyncExternalStore(subscribe, hasPhoneLibrary, hasPhoneLibrary);
  useEffect(() => {
    if (needed && !loaded) void loadPhoneLibrary().catch(() => {}); // offline: checked by shape, shown as stored
  }, [needed, loaded]);
  return loaded;
}
