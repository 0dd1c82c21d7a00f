// A rollout in waves (pipeline `rollout:`): the values of its matrix key (the sites) in ordered waves;
// within a wave at most max-parallel values at once, each value's steps in file order, so a failure stops
// that value only. Past the wave's failure budget no further value starts and the rollout halts; between
// waves the analysis gates run again for the values just rolled out, and a failed analysis halts it too
// (a wave none of whose values succeeded never passes it). The API has no rollback: a halt undoes
// nothing. With a run store a rollout may park instead (park.ts): a long bake, a decision.
import type { Rollout, Step } from '../pipeline/model.ts';
import { undecidedDoubts, type StepRun, type RolloutResult } from './result.ts';
import { haltedEarlier, pastBudget } from './rollout-result.ts';
import { stepPosition, type RunContext } from './run-context.ts';
import { describeSelection, inRollout, matrixValues } from '../pipeline/selection.ts';
import { leaveUnstarted, notStarted } from './instance-end.ts';
import { runInstance } from './run-instance.ts';
import { budgetOf, wavesOf } from './waves.ts';
import { analyse, analysedEarlier } from './wave-analysis.ts';
import { bake, decides, decisionPark, leaveValue, parkedMessage, valueDecides } from './park.ts';
import { continuedFor, decidedFor, failedHere, goesOn, wentPast } from './decisions.ts';

/**
 * What a run limited by --only or --skip leaves out of the rollout's waves (the canary wave, part
 * of a wave), in words; undefined when it runs every value. Its own waves are formed from the
 * values selected, so `wave 1/1: emea` would otherwise look like the whole rollout.
 */
function outsideRun(ctx: RunContext, rollout: Rollout, values: readonly string[]): string | undefined {
  const all = (
    matrixValues({ steps: ctx.pipeline.steps.filter((s) => inRollout(rollout, s)) })[rollout.over] ?? []
  ).map(String);
  if (all.length <= values.length) return undefined;
  const selected = new Set(values);
  const list = (vs: string[]) =>
    vs.length > 5 ? `${vs.slice(0, 5).join(', ')} and ${vs.length - 5} more` : vs.join(', ');
  const parts = wavesOf(rollout, all).flatMap((wave, i) => {
    const out = wave.filter((v) => !selected.has(v));
    if (out.length === 0) return [];
    return [
      out.length === wave.length
        ? `wave ${i + 1} (${list(out)})`
        : `${out.length} of wave ${i + 1}'s ${wave.length} (${list(out)})`,
    ];
  });
  return `this run (limited to: ${describeSelection(ctx.selection) ?? ''}) leaves out of the rollout ${parts.join(', ')}: its waves are formed from the values selected only`;
}

export async function runRollout(
  ctx: RunContext,
  rollout: Rollout,
  split: ReadonlyMap<Step, StepRun[]>,
): Promise<{ result: RolloutResult; analysis: StepRun[] }> {
  const { signal } = ctx.deps;
  const logger = ctx.tell;
  const valueOf = (run: StepRun) => String(run.matrix?.[rollout.over]);
  const values = [...new Set([...split.values()].flatMap((runs) => runs.map(valueOf)))];
  const waves = wavesOf(rollout, values);
  const leftOut = outsideRun(ctx, rollout, values);
  if (leftOut) logger.warn(undefined, leftOut);
  const result: RolloutResult = {
    over: rollout.over,
    waves: waves.map((w, i) => ({
      wave: i + 1,
      values: w,
      outcome: 'not-started',
      failed: [],
      budget: budgetOf(rollout.maxFailures, w.length),
    })),
  };
  const analysisRuns: StepRun[] = [];
  // Each value's runs, step by step, grouped once (a fleet of thousands is not filtered per value).
  const byValue = new Map<string, (readonly [Step, StepRun[]])[]>(
    values.map((v) => [v, [...split.keys()].map((step) => [step, [] as StepRun[]] as const)]),
  );
  [...split.values()].forEach((runs, i) => runs.forEach((run) => byValue.get(valueOf(run))![i]![1].push(run)));
  const runsOf = (value: string) => byValue.get(value) ?? [];
  // The journal keeps why each did not start (a report from it says so); one a resume carries stays as it ended.
  const halt = (value: string, wave: number, message: string, parked = false) => {
    const error = { code: parked ? ('ROLLOUT_PARKED' as const) : ('ROLLOUT_HALTED' as const), message };
    for (const [step, runs] of runsOf(value))
      for (const run of runs)
        leaveUnstarted(ctx, step, Object.assign(run, { wave }), stepPosition(ctx, step), error, false);
  };

  /**
   * One value's steps in order; a failure stops that value's later steps (their `if` sees it).
   * Whether the value failed in its wave: a failure, or a write left in doubt no one decided, which
   * continue-on-error lets the later steps go on past but not the wave's budget.
   */
  const runValue = async (value: string, wave: number): Promise<boolean> => {
    const status = { failed: false, cancelled: false };
    let doubt = false;
    for (const [step, runs] of runsOf(value)) {
      for (const run of runs) {
        run.wave = wave;
        if (signal.aborted) notStarted(ctx, step, run, stepPosition(ctx, step), signal);
        else await runInstance({ ...ctx, status }, step, run, stepPosition(ctx, step));
        await ctx.tell.settled();
        if (run.outcome === 'failure' && !run.continuedOnError) status.failed = true;
        if (undecidedDoubts([run]).length > 0) doubt = true;
      }
    }
    return status.failed || doubt;
  };

  for (const wave of result.waves) {
    if (result.parked && !signal.aborted) {
      wave.outcome = 'not-started';
      for (const value of wave.values) halt(value, wave.wave, parkedMessage(result), true);
      continue;
    }
    if (result.halted || signal.aborted) {
      wave.outcome = signal.aborted ? 'cancelled' : 'not-started';
      for (const value of wave.values) {
        if (signal.aborted)
          for (const [step, runs] of runsOf(value))
            for (const run of runs)
              notStarted(ctx, step, Object.assign(run, { wave: wave.wave }), stepPosition(ctx, step), signal);
        // Where it halted; why is the rollout's (its halted reason), said once by the log and each report.
        else halt(value, wave.wave, haltedEarlier(result.halted!.wave));
      }
      continue;
    }
    logger.info(
      undefined,
      `wave ${wave.wave}/${waves.length}: ${wave.values.join(', ')} (${rollout.over}; at most ${rollout.maxParallel} at once; ${wave.budget} may fail)`,
    );
    // The values the operator's continue went past are not counted again: the failures after it meet the budget.
    const ran = new Set<string>();
    const skipped = new Set<string>();
    const counted = () => wave.failed.filter((v) => !skipped.has(v) && (ran.has(v) || !wentPast(ctx, wave.wave, v)));
    const queue = [...wave.values];
    const worker = async () => {
      for (let value = queue.shift(); value !== undefined; value = queue.shift()) {
        // The operator's word about a value of the wave it parked at: not sent again (skip, exclude, continue).
        const decided = decidedFor(ctx, wave.wave, value) ?? continuedFor(ctx, wave.wave, value);
        if (decided && decided.decision !== 'retry') {
          // Skipped after it failed, it failed (never rolled out, never analysed), not counted against the budget.
          const left = leaveValue(ctx, runsOf(value), wave.wave, decided);
          if (left.counts || left.failed) wave.failed.push(value);
          if (!left.counts) skipped.add(value);
          continue;
        }
        if (counted().length > wave.budget) {
          halt(value, wave.wave, pastBudget(wave.wave, counted().length, rollout.over, wave.budget));
          continue;
        }
        if (!(await runValue(value, wave.wave))) continue;
        wave.failed.push(value);
        if (failedHere(runsOf(value))) ran.add(value);
      }
    };
    await Promise.all(Array.from({ length: Math.min(rollout.maxParallel, wave.values.length) }, worker));
    const spent = counted().length > wave.budget;
    const overBudget = (failed = counted()) => ({
      wave: wave.wave,
      reason: `${failed.length} ${rollout.over}(s) failed (${failed.join(', ')}), over the budget of ${wave.budget}`,
    });
    if (signal.aborted) {
      // Interrupted past its budget by failures of their own (a value the interruption cut is none): it halted all the same.
      const own = counted().filter((v) => runsOf(v).some(([, rs]) => rs.some((r) => r.outcome === 'failure')));
      const halts = own.length > wave.budget;
      wave.outcome = halts ? 'halted' : 'cancelled';
      if (halts) result.halted = overBudget(own);
      continue;
    }
    // on-failure: decide: a value that failed in this run, or the budget passed, waits for the operator.
    // Its failures come first: a write of the wave waiting for its window never hides them (the
    // window is judged again when the operator's word lets the run go on).
    const fresh = counted().filter((v) => !decidedFor(ctx, wave.wave, v));
    const asks = fresh.some((v) => valueDecides(ctx, rollout, runsOf(v)));
    if (asks || (spent && decides(ctx, rollout))) {
      ctx.windowPark.park = undefined;
      wave.outcome = 'parked';
      result.parked = decisionPark(ctx, rollout, wave, runsOf, undefined);
      continue;
    }
    if (spent) {
      ctx.windowPark.park = undefined;
      wave.outcome = 'halted';
      result.halted = overBudget();
      continue;
    }
    // A write of the wave waits for its window (window-park.ts): the wave's values not started are the continue's.
    if (ctx.windowPark.park) {
      wave.outcome = 'parked';
      result.parked = { ...ctx.windowPark.park, wave: wave.wave };
      continue;
    }
    wave.outcome = wave.failed.length > 0 ? 'failed-within-budget' : 'done';
    if (rollout.analysis && wave.wave < waves.length && goesOn(ctx, wave.wave)) {
      wave.analysis = {
        passed: false,
        rounds: 0,
        failedRounds: 0,
        text: "not waited: the operator's decision to go on",
      };
    } else if (rollout.analysis && wave.wave < waves.length) {
      const passed = wave.values.filter((v) => !wave.failed.includes(v));
      const earlier = analysedEarlier(ctx, wave, runsOf);
      if (earlier)
        logger.info(
          undefined,
          `wave ${wave.wave}/${waves.length}: its analysis passed in an earlier run and none of its ${rollout.over}s ran again: not repeated`,
        );
      // The bake before the analysis: waited, or the run parks (with a store) until a later job.
      const baking = earlier ? undefined : await bake(ctx, rollout, wave, runsOf);
      if (baking) {
        wave.outcome = 'parked';
        result.parked = baking;
        continue;
      }
      // A wave with no value that succeeded has nothing to analyse, so nothing shows the next wave is safe.
      wave.analysis = earlier
        ? { ...earlier, text: `${earlier.text.replace(/ \(in an earlier run\)$/, '')} (in an earlier run)` }
        : passed.length === 0
          ? {
              passed: false,
              rounds: 0,
              failedRounds: 0,
              text: `no ${rollout.over} of the wave succeeded (${wave.failed.join(', ')} failed): nothing to analyse`,
            }
          : await analyse(ctx, rollout, split, passed, wave.wave, analysisRuns);
      // Cut short by an interruption: no verdict; a failure it saw stands, interrupted or not.
      const { cut, ...analysis } = wave.analysis as typeof wave.analysis & { cut?: true };
      wave.analysis = analysis;
      if (!analysis.passed && !cut && !signal.aborted && decides(ctx, rollout)) {
        wave.outcome = 'parked';
        result.parked = decisionPark(ctx, rollout, wave, runsOf, `the analysis after it failed: ${wave.analysis.text}`);
      } else if (!analysis.passed && !cut) {
        wave.outcome = 'halted';
        result.halted = { wave: wave.wave, reason: `the analysis after it failed: ${wave.analysis.text}` };
      }
    }
    logger.info(
      undefined,
      `wave ${wave.wave}/${waves.length}: ${wave.outcome}${wave.failed.length ? ` (${wave.failed.length} failed: ${wave.failed.join(', ')})` : ''}`,
    );
  }
  if (result.parked) ctx.tell.rolloutParked(result.parked);
  ctx.tell.rolloutDone(result);
  if (result.halted) {
    ctx.status.failed = true;
    ctx.tell.rolloutHalted(result.halted);
    logger.warn(
      undefined,
      `the rollout halted at wave ${result.halted.wave}: ${result.halted.reason}; nothing is undone`,
    );
  }
  return { result, analysis: analysisRuns };
}
