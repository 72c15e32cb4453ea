import { unavailableReason } from './unavailable';

/**
 * What a long-running process (the worker, the app) does with a rejection no one handled (issue 49,
 * item 9: pg-boss's polling rejected while the database refused connections, and the worker died
 * with an export run left "running"). One that means the database or the storage is out for a
 * moment is logged and the process carries on: its jobs and calls resume when the database is
 * back. Anything else is a bug: logged, and the process ends (its supervisor starts it again).
 */
export function onUnhandledRejection(log: (message: string, error: unknown) => void, exit: (code: number) => void) {
  return (reason: unknown) => {
    if (unavailableReason(reason)) {
      log('the database or storage is out for a moment; carrying on', reason);
      return;
    }
    log('unhandled rejection: ending the process', reason);
    exit(1);
  };
}

/** Installs onUnhandledRejection for this process. */
export function surviveOutages(log: (message: string, error: unknown) => void): void {
  process.on('unhandledRejection', onUnhandledRejection(log, (code) => process.exit(code)));
}
