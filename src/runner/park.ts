// Parking a rollout (with a run store, `run --store`): a bake longer than park-after, or a wave
// whose values failed (or left a call in doubt) under `on-failure: decide`, ends the run parked:
// what waits for what, since when, with the evidence, so a later job goes on (run --continue)
// once the bake elapsed (on both the run's clock and its servers', bake-clock.ts) or an operator
// decided (enginectl decide). Without a store nothing parks: a bake is waited, a failure halts.
import type { Rollout, Step } from '../pipeline/model.ts';
import { undecidedDoubts, type StepRun, type WaveResult } from './result.ts';
import { parkedAt, type OperatorDecision, type Park, type RolloutResult } from './rollout-result.ts';
import { stepPosition, type RunContext } from './run-context.ts';
import { carry } from './instance-end.ts';
import { formatDuration, sleepWhole } from '../duration.ts';
import { bakeOf } from './waves.ts';
import { continuedFor, decidedFor, goesOn } from './decisions.ts';
import { wroteAgain } from './wave-analysis.ts';
import { judgeBake, serverClockOf, type ServerClockSeen } from './bake-clock.ts';

type RunsOf = (value: string) => (readonly [Step, StepRun[]])[];

/**
 * A value the operator decided not to run again (skip, exclude, or a continue past its wave): what
 * the resume carries of it is shown as such (a call in doubt decided, a write done); its instances
 * not carried are left unsent, skipped on that word (never a success). One that failed in an
 * earlier run (a write the server refused, a gate) keeps that failure, its error and attempts, and
 * the operator's word (who, why) as its decision: skipped, it still failed. Says whether the value
 * failed, and whether it counts against the wave's budget (exclude, continue; a skip does not).
 */
export function leaveValue(
  ctx: RunContext,
  runs: (readonly [Step, StepRun[]])[],
  wave: number,
  d: OperatorDecision,
): { failed: boolean; counts: boolean } {
  let failed = false;
  for (const [step, list] of runs)
    for (const run of list) {
      const carried = ctx.resume?.carried.get(run.key);
      if (carried && carried.run.outcome !== 'failure' && run.resume !== 'earlier-run')
        carry(ctx, Object.assign(run, { wave }), stepPosition(ctx, step), carried);
      if (run.resume === 'earlier-run' || (run.outcome === 'skipped' && run.decision)) continue;
      run.wave = wave;
      run.outcome = 'skipped';
      run.figures = `not sent again: ${d.decision === 'skip' ? 'skipped' : d.decision === 'exclude' ? 'excluded from the wave' : 'left as it failed'} by the operator (${d.by}${d.reason ? `: ${d.reason}` : ''})`;
      const earlier = carried?.run;
      if (earlier?.outcome !== 'failure') continue;
      // As the earlier run left it (its attempt that run's: no write of the wave ran again), with the word.
      const { error, attempts, startedAt, durationMs, inputs, target, result, warnings, window, earlierRunAt } =
        earlier;
      Object.assign(run, { error, attempts, startedAt, durationMs, inputs, target, result, warnings, window });
      Object.assign(run, { resume: 'earlier-run', earlierRunAt });
      run.continuedOnError = earlier.continuedOnError;
      run.decision = {
        decision: 'skip',
        by: d.by,
        at: d.at,
        leftFailed: true,
        ...(d.reason ? { reason: d.reason } : {}),
      };
      failed ||= !earlier.continuedOnError;
    }
  return { failed, counts: d.decision !== 'skip' };
}

/**
 * The bake after a wave: on a continue, counted from its start as the journal's park recorded it,
 * or from now when a write of the wave ran again in this run (a value retried): a new write bakes.
 * A continue judges it on its own clock and on a server's (bake-clock.ts): it ends once both say
 * so. What is left is waited when the run cannot park or it is no longer than park-after; else the
 * run parks (with a decision asked on each value of the wave left in doubt). Returns the park, or
 * undefined once it elapsed.
 */
export async function bake(
  ctx: RunContext,
  rollout: Rollout,
  wave: WaveResult,
  runsOf: RunsOf,
): Promise<Park | undefined> {
  const bakeMs = bakeOf(rollout, wave.wave);
  if (bakeMs <= 0 || goesOn(ctx, wave.wave)) return undefined;
  // The bake goes on from the park's start, unless a write of the wave ran again (a retry): then from its end, now.
  const earlier = ctx.resume?.parked?.park;
  const goesOnFrom = earlier?.wave === wave.wave && earlier.for === 'bake' && !wroteAgain(wave, runsOf);
  const since = goesOnFrom ? earlier.since : ctx.deps.now();
  // The park's server clock goes with its start (the parking run's clock); a new start, this run's.
  const runs = wave.values.flatMap((v) => runsOf(v).flatMap(([, list]) => list));
  const parked = goesOnFrom ? earlier.clock : undefined;
  const here = await serverClockOf(ctx, runs, parked?.server, goesOnFrom);
  const judged = judgeBake(since, bakeMs, ctx.deps.now(), goesOnFrom, parked, here);
  if (judged.warning) ctx.tell.warn(undefined, `wave ${wave.wave}: ${judged.warning}`);
  const clock = goesOnFrom ? parked : here && { server: here.server, low: here.low, high: here.high, at: here.at };
  const { left } = judged;
  if (left <= 0 && !judged.held) {
    ctx.tell.info(undefined, `wave ${wave.wave}: its ${formatDuration(bakeMs)} bake elapsed, ${judged.on}`);
    return undefined;
  }
  if (!judged.held && (!ctx.park || left <= ctx.park.afterMs)) {
    ctx.tell.info(undefined, `wave ${wave.wave}: baking ${formatDuration(left)} before its analysis`);
    await sleepWhole((ms, signal) => ctx.deps.sleep(ms, signal), left, ctx.deps.signal).catch(() => undefined);
    return undefined;
  }
  const done = wave.values.length - wave.failed.length;
  const park = bakePark(wave.wave, since, bakeMs, left, done, wave.values.length, judged.evidence, clock);
  return withDoubts(park, rollout, wave, runsOf);
}

/**
 * A rollout parked on the bake after `wave` (one process's, or a sharded run's analyst's): what it
 * waits for, and the evidence: the time left when it parked (`said`: on which clock), the wave's
 * values done; `clock`: the server's clock as the run that started the bake saw it (bake-clock.ts).
 */
export function bakePark(
  wave: number,
  since: number,
  bakeMs: number,
  left: number,
  done: number,
  of: number,
  said?: string,
  clock?: ServerClockSeen,
): Park {
  const reason = `the ${formatDuration(bakeMs)} bake after wave ${wave}`;
  return {
    wave,
    for: 'bake',
    since,
    until: since + bakeMs,
    reason,
    waits: [
      {
        value: null,
        what: reason,
        evidence: [
          said ?? `${formatDuration(left)} left (until ${new Date(since + bakeMs).toISOString()} on the run's clock)`,
          `wave ${wave}: ${done} of ${of} done`,
        ],
      },
    ],
    ...(clock ? { clock } : {}),
  };
}

/**
 * A bake's park with the values of its wave that left a call in doubt no one decided: each waits
 * for a decision of its own (retry, skip, exclude), its call the evidence, so the continue after
 * the bake parks again asking for it rather than refusing the doubt.
 */
export function withDoubts(park: Park, rollout: Rollout, wave: WaveResult, runsOf: RunsOf): Park {
  const values = wave.values.filter((v) => runsOf(v).some(([, list]) => undecidedDoubts(list).length > 0));
  if (values.length === 0) return park;
  return {
    ...park,
    waits: [
      ...park.waits,
      ...values.map((value) => ({
        value,
        what: `a decision on ${rollout.over} ${value} (its call in doubt: retry, skip, exclude)`,
        evidence: evidenceOf(runsOf(value)),
      })),
    ],
  };
}

/** What a value's runs say of its failure: each failed instance's error, and the call it left in doubt. */
function evidenceOf(runs: (readonly [Step, StepRun[]])[]): string[] {
  return runs.flatMap(([, list]) =>
    list.flatMap((r) =>
      r.outcome !== 'failure' && !r.inDoubt
        ? []
        : [
            `${r.name}: ${r.error?.message ?? r.outcome}${r.inDoubt ? ` (in doubt: ${r.inDoubt.method} ${r.inDoubt.path}${r.inDoubt.status === undefined ? '' : `, answered ${r.inDoubt.status}`})` : ''}`,
          ],
    ),
  );
}

/** A wave that failed (a value, its budget, its analysis) parked for an operator's decision. */
export function decisionPark(
  ctx: RunContext,
  rollout: Rollout,
  wave: WaveResult,
  runsOf: RunsOf,
  why: string | undefined,
): Park {
  const budgetLeft = Math.max(0, wave.budget - wave.failed.length);
  // A value retried that failed again waits for a word again: the retry was acted on.
  const undecided = wave.failed.filter(
    (v) => (decidedFor(ctx, wave.wave, v)?.decision ?? 'retry') === 'retry' && !continuedFor(ctx, wave.wave, v),
  );
  const waits: Park['waits'] = undecided.map((value) => ({
    value,
    what: `a decision on ${rollout.over} ${value} (retry, skip, exclude)`,
    evidence: [...evidenceOf(runsOf(value)), `the wave's budget left: ${budgetLeft} of ${wave.budget}`],
  }));
  if (why || waits.length === 0)
    waits.push({
      value: null,
      what: `a decision on wave ${wave.wave} (continue, abort)`,
      evidence: [why ?? `${wave.failed.length} failed, over the budget of ${wave.budget}`],
    });
  return {
    wave: wave.wave,
    for: 'decision',
    since: ctx.deps.now(),
    reason: `a decision on wave ${wave.wave}: ${why ?? `${wave.failed.join(', ')} failed`}`,
    waits,
  };
}

/** Whether a rollout parks for a decision on failure: `on-failure: decide` and a run store. */
export const decides = (ctx: RunContext, rollout: Rollout): boolean =>
  rollout.onFailure === 'decide' && ctx.park !== undefined;

/** Whether a value's failure asks for a decision: a failed or in-doubt instance whose step's on-failure (else the rollout's) is decide, with a run store. */
export function valueDecides(ctx: RunContext, rollout: Rollout, runs: (readonly [Step, StepRun[]])[]): boolean {
  if (ctx.park === undefined) return false;
  return runs.some(
    ([step, list]) =>
      (step.onFailure ?? rollout.onFailure) === 'decide' &&
      list.some((r) => (r.outcome === 'failure' && !r.continuedOnError) || r.inDoubt !== undefined),
  );
}

/** "parked: waiting for ...": the headline of every report and the last lines of the log. */
export function parkedHeadline(park: Park): string {
  return `parked: waiting for ${park.reason}`;
}

/** The instances of the waves after a park, and of its own values not run: not started, saying where it parked. */
export function parkedMessage(result: RolloutResult): string {
  return parkedAt(result.parked!.wave, result.parked!.reason);
}
