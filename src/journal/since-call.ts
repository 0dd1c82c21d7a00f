// "Since the call" when the machine that verifies is not the one that ran the write (verify
// --store, a resume in another CI job): the write's record is stamped on the run's clock, and
// verify reads its own, which may be minutes off it. The server's clock is the one both read (the
// Date of its answers, api/server-clock.ts): the run kept its own against it with the write's
// record, verify reads its own from the answers to its reads. This machine's times are read as the
// run's clock through the server's, never later than the two machines' clocks say them (a server
// whose clock was set forward since the run makes the time since the call no longer either).
import { farOff as far, offWords, type ClockSeen } from '../api/index.ts';

/**
 * Beyond what the Date itself bounds: 1 s (a server may stamp a Date it made up to a second
 * before: Node's and nginx's are cached), and a clock's drift of 1 ms a second between an answer
 * and the time it is used for.
 */
const MARGIN_MS = 1_000;
const DRIFT = 1 / 1_000;

/**
 * How this machine's clock reads as the run's: `shift` added to a time of this machine's, never
 * above 0 (`note`: the clocks named, when one is far off the server's, after a "; "); or why it
 * cannot be known.
 */
export type RunClock = { shift: number; note: string } | { unknown: string };

/**
 * `run`: the server's clock as the run saw it before the call (its record's); `here`: as this
 * machine saw it reading the target; `callAt` and `now`, the times they are used for.
 */
export function runClock(
  run: ClockSeen | undefined,
  here: ClockSeen | undefined,
  callAt: number,
  now: number,
): RunClock {
  if (run && here) {
    const margin = MARGIN_MS + DRIFT * (Math.abs(callAt - run.at) + Math.abs(now - here.at));
    // The server's clock is at least now + here.low; it was at most callAt + run.high at the call.
    const through = here.low - run.high - margin;
    const named = [
      ...(far(here) ? [offWords(here, "this machine's clock is", 'it')] : []),
      ...(far(run) ? [offWords(run, "the run's was", 'it')] : []),
    ];
    const note =
      named.length === 0
        ? ''
        : `; counted on ${through < 0 ? "the server's clock" : "the two machines' clocks, which say less than the server's"}: ${named.join(', ')}`;
    return { shift: Math.min(0, through), note };
  }
  const then = 'the time since the call cannot be counted across the two machines';
  if (here && far(here))
    return {
      unknown: `${offWords(here, "this machine's clock is")} (the Date of its answers), and the journal does not say how the run's clock stood against it (an earlier enginectl wrote it, or no answer of the server had a Date): ${then}: set this machine's clock right (NTP) and verify again, or check on the server, then decide (skip or retry)`,
    };
  if (run && far(run))
    return {
      unknown: `${offWords(run, "the run's clock was")} (the Date of its answers), and this machine's against it is not known (no answer of the server had a Date): ${then}: check on the server, then decide (skip or retry)`,
    };
  return { shift: 0, note: '' };
}
