import { performance } from 'node:perf_hooks';

/**
 * The share of the machine the office's bulk work takes while applicants are saving (issue 49,
 * item 15): an export run, a release of thousands of decisions. Half: after each slice of work it
 * pauses as long as the slice took, so the web process's event loop and PostgreSQL serve the
 * saves in between. An export or a release takes twice as long or more (a slice is wall time, so
 * it yields more when other work shares the process); measured beside the saves in `npm run
 * bench` (scripts/benchBeside.ts, decision 0039).
 */
const BULK_SHARE = 0.5;
/** Work shorter than this between two pauses is not paused after: fewer, longer pauses. */
const SLICE_MS = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Paces one piece of bulk work: `breathe()` between its steps pauses when a slice of work has been
 * done since the last pause, for that slice × (1 / share − 1).
 */
export class Pacer {
  private since: number;
  constructor(
    private readonly share = BULK_SHARE,
    private readonly now: () => number = () => performance.now(),
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {
    if (!(share > 0 && share <= 1)) throw new RangeError(`a bulk share is in (0, 1], not ${share}`);
    this.since = now();
  }

  async breathe(): Promise<void> {
    const worked = this.now() - this.since;
    if (worked < SLICE_MS) return;
    if (this.share < 1) await this.wait(worked * (1 / this.share - 1));
    this.since = this.now();
  }
}
