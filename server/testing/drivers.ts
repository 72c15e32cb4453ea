import { describe, it } from 'vitest';

/**
 * For a suite on both drivers (where the driver matters: statements, notices, rate limits,
 * search): `it` and `describe` that register their tests on the embedded database's run only,
 * for the tests of the suite whose driver does not matter (docs/decisions/0016).
 */
export function embeddedOnlyOn(kind: 'pglite' | 'postgres'): { it: typeof it; describe: typeof describe } {
  const nothing = (() => {}) as unknown;
  return kind === 'pglite' ? { it, describe } : { it: nothing as typeof it, describe: nothing as typeof describe };
}
