// What the decide listing says of a bake's time. The park's evidence says what was left when it
// parked, on which clock (runner/bake-clock.ts); the machine that lists it may be a third one, its
// clock hours off the run's, and a continue ends the bake only as it judges it: on its own
// machine's clock and on a server's of the wave (the Date of its answers), parking again while
// either says it has not elapsed. So the listing keeps the park's evidence, says this machine's
// reading as this machine's, and says how the continue judges it: it promises no continue. A bake
// the operator ended (decide --continue) is said ended, whatever a clock says.
import { formatDuration } from '../duration.ts';
import type { Parked } from './parked.ts';

/** The evidence of a bake's wait in the listing at `now` (this machine's clock), `first` the park's own (what was left, on which clock). */
export function bakeListing(parked: Parked, first: string, now: number): string[] {
  const parkedWords = `when it parked: ${first}`;
  if (parked.decided.some((d) => d.decision === 'continue' && d.value === null))
    return [parkedWords, "ended by the operator's decision to continue"];
  const until = parked.park.until!;
  const end = new Date(until).toISOString();
  const here =
    until > now
      ? `${formatDuration(until - now)} left on this machine's clock (until ${end})`
      : `elapsed on this machine's clock (at ${end}, ${formatDuration(now - until)} ago)`;
  return [
    parkedWords,
    here,
    "run --continue judges it on its own machine's clock and on a server's of the wave, and parks again while either says it has not elapsed (decide --continue ends it now)",
  ];
}
