// A bake across two machines: its start is on the clock of the run that parked (the park's
// `since`), its end judged by the continue, often another CI job on another runner whose clock
// may be hours off (no NTP, a VM resumed): judged on that clock alone, a clock 13h ahead ends a
// 12h bake 1h in and sends the next wave. The one clock both runs read is the servers' (the Date
// of their answers, api/server-clock.ts): the park keeps the run's against one server of the wave,
// and the continue reads that server's against its own (its answers so far, else one read of it).
// The bake ends only once both clocks say it elapsed: this machine's since the park's start, and
// the server's since the start as the park saw it there, read generously (the Date's second, the
// exchange's time, a margin) so that it holds the bake only where it surely has not elapsed. So
// neither clock's word alone ends it while the other says it has not, and a clock gone back since
// the park lengthens the bake, never shortens it. The smallest model that is sound: no clock is
// trusted over the other, only the later end kept; a server whose clock jumped can lengthen a
// bake, never shorten it. Where the park kept no server's clock (an earlier enginectl, no answer
// with a Date) and this machine's is far off the servers', the bake cannot be judged across the
// two machines: the continue parks again, saying so. Where no server's clock can be read now, the
// bake is judged on this machine's clock alone, and its evidence says so.
import { farOff, offWords, type ClockSeen } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import type { StepRun } from './result.ts';
import type { RunContext } from './run-context.ts';

/** A server's clock minus this machine's, as its answer showed it (ClockSeen), and which server. */
export type ServerClockSeen = ClockSeen & { server: string };

/** Beyond what the Date itself bounds (as verify's, journal/since-call.ts): 1 s, and a drift of 1 ms a second. */
const MARGIN_MS = 1_000;
const DRIFT = 1 / 1_000;

export interface BakeJudged {
  /** What is left of it, in ms; at most 0 once elapsed. */
  left: number;
  /** The park's first evidence: what is left, on which clock. */
  evidence: string;
  /** Once elapsed, which clocks said so: "on this machine's clock and on server site-001's". */
  on: string;
  /** Said once: this machine's clock far off the server's. */
  warning?: string | undefined;
  /** It cannot be judged across the two machines: the run parks again, whatever this machine's clock says. */
  held?: boolean;
}

/**
 * The bake from `since` (the clock of the run that parked: `parked`, its server's clock then) judged
 * `now` by this run (`here`, the server's clock as it reads it). `carried`: `since` is an earlier
 * run's (a continue); else this run's own, and this machine's clock alone judges it.
 */
export function judgeBake(
  since: number,
  bakeMs: number,
  now: number,
  carried: boolean,
  parked: ServerClockSeen | undefined,
  here: ServerClockSeen | undefined,
  /** How a held bake goes on once the clock is set right (a sharded run's workers run again: no decision ends its bake). */
  goOn = 'continue again, or end the bake with enginectl decide --continue',
): BakeJudged {
  const local = since + bakeMs - now;
  const onRun = `${formatDuration(Math.max(0, local))} left (until ${new Date(since + bakeMs).toISOString()} on the run's clock)`;
  if (!carried) return { left: local, evidence: onRun, on: "on this machine's clock" };
  const far = here && farOff(here) ? here : undefined;
  const skew = far && offWords(far, "this machine's clock is", `server ${far.server}'s`);
  const warning =
    skew &&
    `${skew} (the Date of its answers): a bake is judged on both clocks, and ends once both say it elapsed: set this machine's clock right (NTP)`;
  if (parked && here && parked.server === here.server) {
    const margin = MARGIN_MS + DRIFT * (Math.abs(since - parked.at) + Math.abs(now - here.at));
    // The server's clock reads at most now + here.high, and read at least since + parked.low at the start: the most it can have baked.
    const onServer = bakeMs - (now + here.high - (since + parked.low) + margin);
    const on = `on this machine's clock and on server ${here.server}'s`;
    if (onServer <= local) return { left: local, evidence: skew ? `${onRun}: ${skew}` : onRun, on, warning };
    const says = local <= 0 ? 'says the bake elapsed' : `says ${formatDuration(local)} left`;
    const evidence = `${formatDuration(onServer)} left on server ${here.server}'s clock (the Date of its answers)${far ? `: ${offWords(far, "this machine's clock is", 'it')} and ${says}` : ''}`;
    return { left: onServer, evidence, on, warning };
  }
  const kept = parked
    ? `the park kept server ${parked.server}'s clock, which this run could not read`
    : "the park kept no server's clock (an earlier enginectl wrote it, or no answer had a Date)";
  if (skew && local <= 0)
    return {
      left: local,
      held: true,
      evidence: `the bake cannot be judged across the two machines: ${skew} (the Date of its answers), and ${kept}: set this machine's clock right (NTP) and ${goOn}`,
      on: '',
      warning,
    };
  const alone = here ? kept : 'no answer of a server of the wave had a Date';
  return {
    left: local,
    evidence: `${onRun}${skew ? `: ${skew}` : ''}`,
    on: `on this machine's clock alone (${alone})`,
    warning,
  };
}

/**
 * The server's clock as this run reads it, against its own: `prefer`'s (the server the park kept),
 * else the freshest answer of a server of the wave's `runs`. `read`: when the one it wants has not
 * answered yet (a continue whose values ran nothing again), one GET of its Engines (a read only).
 */
export async function serverClockOf(
  ctx: RunContext,
  runs: readonly StepRun[],
  prefer: string | undefined,
  read: boolean,
): Promise<ServerClockSeen | undefined> {
  const client = (server: string) => {
    try {
      return ctx.client(server);
    } catch {
      return undefined; // not a server this run calls (--only): not read
    }
  };
  const seen = (server: string) => {
    const clock = client(server)?.serverClock();
    return clock && { server, ...clock };
  };
  const servers = [...new Set(runs.flatMap((r) => (r.server === undefined ? [] : [r.server])))];
  const freshest = () =>
    servers
      .map(seen)
      .filter((c) => c !== undefined)
      .sort((a, b) => b.at - a.at)[0];
  const wanted = prefer ?? (freshest() ? undefined : servers[0]);
  if (wanted !== undefined && read && !seen(wanted))
    // A failed read leaves it unknown: the bake is then judged on the clocks that are known, and says so.
    await client(wanted)
      ?.monitoring.engineVersions({ signal: ctx.deps.signal })
      .catch(() => undefined);
  return (wanted === undefined ? undefined : seen(wanted)) ?? freshest();
}
