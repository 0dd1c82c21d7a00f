// The quiet gate of a write whose window asks for it (schedule/quiet.ts): inside the window, the
// server's application sessions are read (GET /api/monitoring/v1/sessions, every Engine of its
// database) every minute on the run's clock (simulated under --emulator) until none stays but
// those excepted; if the write stops fitting first (the window would end before it does), the
// wait ends and the write is not started (admission.ts: WINDOW_CLOSED, or the run parks).
import { fits, type Schedule, type Verdict } from '../schedule/schedule.ts';
import { describeSession, quietAt, staying } from '../schedule/quiet.ts';
import { windowTime } from '../schedule/window-time.ts';
import { formatDuration } from '../duration.ts';
import type { StepRun } from './result.ts';
import type { RunContext } from './run-context.ts';

/** How often the sessions are read while a write waits for quiet. */
export const QUIET_POLL_MS = 60_000;

export interface QuietWait {
  /** The verdict at the end of the wait: it fits (quiet came), or it no longer does (the window ends first). */
  verdict: Verdict;
  /** When the wait ended, on the run's clock as windows read it (schedule/window-time.ts). */
  at: number;
  /** How long it waited. */
  waitedMs: number;
  /** The sessions that stayed at the last read, in words (empty once quiet). */
  staying: string[];
}

/** Waits for quiet from `now` while the write fits; returns at once when no window holding it asks for quiet. */
export async function awaitQuiet(
  ctx: RunContext,
  run: StepRun,
  judged: { schedule: Schedule; need: number; verdict: Verdict },
  now: number,
): Promise<QuietWait> {
  const { signal } = ctx.deps;
  let at = now;
  let verdict = judged.verdict;
  let said = '';
  let slept = false;
  for (;;) {
    const quiets = quietAt(judged.schedule, at);
    if (quiets.length === 0) return { verdict, at, waitedMs: at - now, staying: [] };
    let left: string[];
    try {
      const sessions = await ctx.client(run.server).monitoring.sessions({ signal });
      left = staying(sessions, quiets, at).map(describeSession);
    } catch (error) {
      if (signal.aborted) throw error;
      left = [`the sessions could not be read (${(error as Error).message})`];
    }
    // The read took time too (a slow gateway's minutes): the write is judged again at its end, as
    // after a wait, and leaves on that verdict, or not at all.
    at = windowTime(ctx.deps);
    verdict = fits(judged.schedule, at, judged.need);
    if (!verdict.fits) return { verdict, at, waitedMs: at - now, staying: left };
    if (left.length === 0) {
      if (slept) ctx.tell.info(run, `the application is quiet after ${formatDuration(at - now)}`);
      return { verdict, at, waitedMs: at - now, staying: [] };
    }
    const text = `waiting for the application to be quiet: ${left.length} session(s) stay: ${left.slice(0, 5).join(', ')}${left.length > 5 ? ` and ${left.length - 5} more` : ''}`;
    if (text !== said) ctx.tell.info(run, ctx.masker.mask(text));
    said = text;
    await ctx.deps.sleep(QUIET_POLL_MS, signal);
    slept = true;
    // Judged as admission judges (schedule/window-time.ts): a suspend during the wait is counted.
    at = windowTime(ctx.deps);
    verdict = fits(judged.schedule, at, judged.need);
    if (!verdict.fits) return { verdict, at, waitedMs: at - now, staying: left };
  }
}
