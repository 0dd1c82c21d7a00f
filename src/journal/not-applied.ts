// "Not applied" needs proof: a target that shows no effect proves nothing while the write may
// still be running at the server, which the API cannot show. It holds only once the step's
// declared `longest:` has passed since the call, counted on the run's clock (since-call.ts: read
// through the server's when verify runs on another machine); otherwise the verdict is "cannot
// tell", saying what would decide it. So is a lag the verdict says (monitoring's refresh): within
// it since the latest the call can have left, on that clock, nothing read proves anything.
import type { ClockSeen } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import type { Verdict } from '../steps/types.ts';
import { runClock } from './since-call.ts';

export function provenNotApplied(
  verdict: Verdict,
  /** The call: its record's time and the latest it can have left, on the run's clock, and the server's clock as the run saw it. */
  call: { at: number; leftBy: number; clock?: ClockSeen | undefined },
  now: number,
  longestMs: number | undefined,
  /** The server's clock as this machine saw it reading the target (its answers' Date). */
  here?: ClockSeen | undefined,
): Verdict {
  if (verdict.verdict !== 'not-applied' && !verdict.lag) return verdict;
  const clock = runClock(call.clock, here, call.at, now);
  // This machine's times read on the run's clock, and the run's said on this machine's.
  const shift = 'shift' in clock ? clock.shift : 0;
  const asRun = (t: number) => t + shift;
  const onThisClock = (t: number) => new Date(t - shift).toISOString();
  // At least this long after the call (never less than nothing: a verify straight after it, less the margin).
  const since = 'shift' in clock ? `${formatDuration(Math.max(0, asRun(now) - call.at))} after the call` : undefined;
  const note = 'shift' in clock ? clock.note : '';
  const { lag } = verdict;
  // Counted from the latest the call can have left, not from its record. On a clock not known, what
  // was read stands, and "not applied" says below why it cannot be counted.
  if (lag && since !== undefined && asRun(now) - call.leftBy < lag.ms)
    return {
      verdict: 'cannot-tell',
      evidence: `${lag.read}, ${since}: ${lag.why}; verify again after ${onThisClock(call.leftBy + lag.ms)}${note}`,
    };
  if (verdict.verdict !== 'not-applied') return verdict;
  const read = since === undefined ? verdict.evidence : `${verdict.evidence}, ${since}${note}`;
  if (longestMs === undefined) {
    return {
      verdict: 'cannot-tell',
      evidence: `${read}; the API cannot show a write still running at the server: declare longest: on the step (the longest its write can take) and verify again once that long has passed since the call`,
    };
  }
  if ('unknown' in clock) return { verdict: 'cannot-tell', evidence: `${read}; ${clock.unknown}` };
  // Counted from the latest the call can have left (its record's time and the bound on the send),
  // to when what was read was true (monitoring's last report), not when it was read.
  const passedAt = call.leftBy + longestMs;
  const left = `since the latest the call can have left (${formatDuration(call.leftBy - call.at)} after its record)`;
  if (asRun(now) < passedAt) {
    return {
      verdict: 'cannot-tell',
      evidence: `${read}; the step's longest: ${formatDuration(longestMs)} has not passed ${left}: verify again after ${onThisClock(passedAt)}`,
    };
  }
  // The time has passed, but what was read is older: waiting adds nothing until the target reports again.
  if (verdict.asOf !== undefined && asRun(verdict.asOf) < passedAt) {
    return {
      verdict: 'cannot-tell',
      evidence: `${read}; what was read is as of ${new Date(verdict.asOf).toISOString()} (the target's last report), before the step's longest: ${formatDuration(longestMs)} had passed ${left}: verify again once the target reports after ${onThisClock(passedAt)}`,
    };
  }
  return {
    verdict: 'not-applied',
    evidence: `${verdict.evidence} (${since}, past the step's longest: ${formatDuration(longestMs)}${note})`,
  };
}
