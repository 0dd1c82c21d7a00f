// A parked run read back from its journal (run --continue, decide, runs --parked): whether it is
// parked at all (not aborted, not gone on), and what it still waits for: a decision on each value
// the park names, or one on the wave; a bake waits on the run's clock, which the runner reads.
import { EnginectlError, UsageError } from '../errors.ts';
import type { JournalState } from '../journal/read.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';
import type { OperatorDecision, Park } from '../runner/rollout-result.ts';

export type Parked = NonNullable<JournalState['parked']>;

/** A wait longer than this parks a run with a store, unless the pipeline says otherwise (park-after). */
export const PARK_AFTER_MS = 10 * 60_000;

/** How a run with a run store may park: a bake longer than the pipeline's park-after. */
export const parkingOf = (pipeline: Pipeline) => ({ afterMs: pipeline.parkAfterMs ?? PARK_AFTER_MS });

/**
 * The decisions of one park in force at `now` on the run's clock: a decision with a timeout (decide
 * --after 4h --then abort) counts once its time came, unless the operator decided again at that
 * park after it (in the journal's order) before a run went on on it: "unless another is made
 * before". `wentOn`: each run that went on from the park, its start and the decisions before it.
 */
export function inForce(
  decided: readonly OperatorDecision[],
  now: number,
  wentOn: readonly { at: number; decided: number }[] = [],
): OperatorDecision[] {
  const actedOn = (d: OperatorDecision, i: number) => wentOn.some((w) => d.after! <= w.at && i === w.decided - 1);
  return decided.filter(
    (d, i) => d.after === undefined || (d.after <= now && (i === decided.length - 1 || actedOn(d, i))),
  );
}

/** The park with the decisions in force at `now` on the run's clock (inForce). */
export function inEffect(parked: Parked, now: number): Parked {
  return { ...parked, decided: inForce(parked.decided, now, parked.wentOn) };
}

/** The decisions that wait for their time (decide --after), in words: none once decided again after. */
export const timeouts = (parked: Parked, now: number): string[] =>
  parked.decided
    .filter((d, i) => d.after !== undefined && d.after > now && i === parked.decided.length - 1)
    .map((d) => `${d.decision} at ${new Date(d.after!).toISOString()} unless decided before (${d.by})`);

/** The operator's abort of the parked run, when one was decided. */
export const abortOf = (parked: Parked): OperatorDecision | undefined =>
  parked.decided.find((d) => d.decision === 'abort');

/**
 * What the park still waits for that only a decision gives: each wait without a decision of its
 * value, none once the wave was decided (continue). A bake's wait is the runner's to judge, on the
 * run's clock: not listed here unless a decision is all that is left; a value of the baked wave
 * whose call is in doubt waits for a decision on it.
 */
export function pendingDecisions(parked: Parked): Park['waits'] {
  if (parked.park.for === 'window') return [];
  // A bake's park may wait on a value whose call is in doubt too: a decision on that value only (ending the bake is not one).
  if (parked.park.for === 'bake')
    return parked.park.waits.filter((w) => w.value !== null && !parked.decided.some((d) => d.value === w.value));
  if (parked.decided.some((d) => d.decision === 'continue' || d.decision === 'abort')) return [];
  return parked.park.waits.filter((w) =>
    w.value === null ? parked.park.waits.length === 1 : !parked.decided.some((d) => d.value === w.value),
  );
}

/** run --continue of a journal whose last run did not park (or was aborted): refused, nothing sent. */
export function checkParked(
  state: JournalState,
  where: string,
  ways: WaysOn = CLI_WAYS,
): asserts state is JournalState & { parked: Parked } {
  if (!state.parked)
    throw new UsageError('NOT_PARKED', `${where}: its last run did not park; there is nothing to continue`, {
      hint: `resume a run that ended otherwise with ${ways.resume}; ${ways.findParked}`,
    });
  const abort = abortOf(state.parked);
  if (abort)
    throw new UsageError(
      'NOT_PARKED',
      `${where}: the operator aborted it (${abort.by}, ${new Date(abort.at).toISOString()}${abort.reason ? `: ${abort.reason}` : ''}); nothing more is sent`,
      { hint: 'start a new run of the pipeline if the rollout is to go on after all' },
    );
}

/**
 * run --resume of a run parked for a decision or a bake, or aborted: refused, nothing sent.
 * --continue goes on with it, honouring what it waits for (the decision, the bake from its start)
 * and what was decided (an abort: nothing more is sent). A window's park is judged again by any run.
 */
export function refuseResumeParked(state: JournalState, where: string, ways: WaysOn): void {
  if (!state.parked) return;
  checkParked(state, where, ways);
  const { park } = state.parked;
  if (park.for !== 'decision' && park.for !== 'bake') return;
  throw new UsageError(
    'RESUME_PARKED',
    `${where}: the run is parked${park.wave ? ` at wave ${park.wave}` : ''}, waiting for ${park.reason}; ${ways.resume} does not go around it. Nothing was sent`,
    {
      hint: `enginectl decide --store URL --run ID lists what it waits for; then go on with ${ways.continueParked('ID')}`,
    },
  );
}

/**
 * Whether a journal refused as a runner opened it leaves the run parked, so a fleet lease the park
 * kept (park: { keep-lease: true }) is kept again, not released to another run: run --resume of a
 * parked run (RESUME_PARKED), or a --continue refused for anything but the run not being parked.
 */
export const leavesParked = (error: unknown, continued: boolean): boolean =>
  error instanceof EnginectlError && (error.code === 'RESUME_PARKED' || (continued && error.code !== 'NOT_PARKED'));

/**
 * The parks of a journal's release, in order (journal/parks.ts reads them), each with the decisions
 * in force at `now`: a wave the run went past at one keeps the operator's word about it.
 */
export const parksOf = (state: JournalState, now: number): Parked[] =>
  state.parks.map((p) => ({ ...p, decided: inForce(p.decided, now, p.wentOn) }));

/** "waiting for X: evidence" lines of a park's waits. */
export function waitLines(waits: Park['waits']): string[] {
  return waits.map((w) => `waiting for ${w.what}${w.evidence.length ? `: ${w.evidence.join('; ')}` : ''}`);
}
