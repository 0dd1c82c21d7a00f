// How long a worker waiting at a wave's barrier sleeps before it reads the store again. Short
// (FIRST_POLL_MS) while the wave's log still moves: the last sites are ending one after another, and
// the barrier is likely to open within a read or two. Doubled while the log stands still (a bake, a
// slow site, a worker gone until its lease lapses), up to the worker's poll (a tenth of its lease's
// ttl, at most 5 s), so that a long wait costs few reads of the store.
export const FIRST_POLL_MS = 100;

export class BarrierPoll {
  private seq: number | undefined;
  private delay = 0;

  constructor(private readonly maxMs: number) {}

  /** The sleep before the next read, given the newest key of the wave's log read now. */
  next(seq: number): number {
    const moved = seq !== this.seq;
    this.seq = seq;
    this.delay = moved ? Math.min(FIRST_POLL_MS, this.maxMs) : Math.min(this.delay * 2, this.maxMs);
    return this.delay;
  }
}
