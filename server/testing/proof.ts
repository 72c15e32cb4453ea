/**
 * The proof suites' size. `npm test` runs each at a size that still finds what it found before (a
 * seeded fuzz run, one kill per stage and database); `npm run test:proof` sets PROOF=full and runs
 * them at full size (thousands of fuzzed requests on a new seed, three kills mid-stream).
 */
export const fullProof = process.env.PROOF === 'full';
