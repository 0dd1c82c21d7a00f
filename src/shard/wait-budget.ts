// What a worker of a sharded run may wait in all (--shard-wait), one per worker process: its waits
// at a wave's barrier, on a bake, for a site's window and for a gone worker's lease to lapse
// (confirmed on its clock before it takes that worker's sites over) each spend from it, on the
// worker's clock, so that a job with several waits parks (exit 75) before the CI system's job
// limit kills it; a later job (the same command) has a budget of its own. Time in which two of its
// waits overlap (two lanes each waiting for a window) is spent once: the budget is the job's time
// spent waiting.

export class WaitBudget {
  private spentMs = 0;
  /** The waits under way, and since when at least one has been. */
  private waits = 0;
  private from = 0;

  constructor(
    /** The bound: --shard-wait. */
    readonly limitMs: number,
    private readonly now: () => number,
  ) {}

  /** What the worker has waited so far, the waits under way with it. */
  spent(): number {
    return this.spentMs + (this.waits > 0 ? this.now() - this.from : 0);
  }

  /** What is left to wait (0 once spent). */
  left(): number {
    return Math.max(0, this.limitMs - this.spent());
  }

  /** Whether the worker has waited past its bound: at a barrier, it parks. */
  over(): boolean {
    return this.spent() > this.limitMs;
  }

  /** A wait begins: its time is spent until the function returned is called (once). */
  begin(): () => void {
    if (this.waits++ === 0) this.from = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.waits === 0) this.spentMs += Math.max(0, this.now() - this.from);
    };
  }

  /** Waits `wait`, its time spent. */
  async waiting<T>(wait: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await wait();
    } finally {
      end();
    }
  }
}
