/** The longest wait between two polls while a server keeps failing. */
export const MAX_POLL_BACKOFF_MS = 60_000;

/**
 * The wait before the next poll: the normal interval while calls succeed; after failures in a row
 * it doubles with each one, up to a minute, so a server in trouble is not asked again and again.
 */
export function pollDelay(intervalMs: number, failuresInARow: number): number {
  if (failuresInARow <= 0) return intervalMs;
  return Math.min(intervalMs * 2 ** failuresInARow, Math.max(MAX_POLL_BACKOFF_MS, intervalMs));
}
