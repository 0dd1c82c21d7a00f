// The analysis between a rollout's waves: its gates run again for the values just rolled out,
// count rounds interval apart, each round a fresh instance of the gate; a wave analysed in an
// earlier run whose values wrote nothing again keeps that verdict.
import type { Rollout, Step } from '../pipeline/model.ts';
import { identityOf, newInstance } from './instance.ts';
import type { StepRun, WaveResult } from './result.ts';
import { stepPosition, type RunContext } from './run-context.ts';
import { runInstance } from './run-instance.ts';
import { isReadOnly, STEP_TYPES } from '../steps/registry.ts';
import { gateRounds } from './gate-rounds.ts';

/** A gate's instance name in an analysis round (a sharded run's analyst names its rounds so too). */
export const roundName = (name: string, wave: number, round: number, count: number) =>
  `${name} (analysis after wave ${wave}, round ${round}/${count})`;

/** A fresh instance of a gate for one analysis round: the gate's identity, nothing run yet. */
function roundRun(gate: StepRun, wave: number, round: number, count: number): StepRun {
  const key = `${gate.key}@analysis-${wave}-${round}`;
  return newInstance({ ...identityOf(gate), key, name: roundName(gate.name, wave, round, count) }, { wave, round });
}

/**
 * On a resume, the analysis after `wave` as an earlier run passed it, when the wave is the same
 * values, failed as they had then (a failure a continue carries, or a value left on the operator's
 * word), and no write of theirs ran again (each carried, or not started: the gates run again
 * anyway): repeating it would only wait its bake and rounds again. The analysis after a halted
 * wave did not pass, so it runs again.
 */
export function analysedEarlier(
  ctx: RunContext,
  wave: WaveResult,
  runsOf: (value: string) => (readonly [Step, StepRun[]])[],
): NonNullable<WaveResult['analysis']> | undefined {
  const earlier = ctx.resume?.analysed?.get(wave.wave);
  const same = (a: readonly string[], b: readonly string[]) => [...a].sort().join('\n') === [...b].sort().join('\n');
  if (!earlier || !same(earlier.failed ?? [], wave.failed) || earlier.values.join('\n') !== wave.values.join('\n'))
    return undefined;
  return wroteAgain(wave, runsOf) ? undefined : earlier.analysis;
}

/**
 * Whether a write of the wave's values ran in this run (started, not carried): its analysis, and
 * its bake, are about what it left (a carried analysis is dropped, a bake counts from its end).
 * The gates run again anyway, and write nothing.
 */
export function wroteAgain(wave: WaveResult, runsOf: (value: string) => (readonly [Step, StepRun[]])[]): boolean {
  const reads = (step: Step) => {
    const type = STEP_TYPES.get(step.uses);
    return type !== undefined && isReadOnly(type, step.with ?? {});
  };
  return wave.values.some((v) =>
    runsOf(v).some(
      ([step, runs]) => !reads(step) && runs.some((r) => r.resume !== 'earlier-run' && r.startedAt !== undefined),
    ),
  );
}

/** The gates, again, for the values a wave rolled out: `count` rounds, `interval` apart; more failed rounds than the limit fail it. */
export async function analyse(
  ctx: RunContext,
  rollout: Rollout,
  split: ReadonlyMap<Step, StepRun[]>,
  values: string[],
  wave: number,
  out: StepRun[],
): Promise<NonNullable<WaveResult['analysis']> & { cut?: true }> {
  const { count } = rollout.analysis!;
  const gates = rollout.analysis!.gates;
  const gateSteps = [...split].filter(([step]) => step.id !== undefined && gates.includes(step.id));
  // Cut short (the run interrupted in the bake before it, or a gate of a round cancelled): no
  // verdict, and never a pass, which a resume would carry and start the next wave on.
  const cut = (rounds: number, failedRounds: number) => ({
    passed: false,
    rounds,
    failedRounds,
    text: 'cancelled: the run was interrupted before the analysis reached its verdict',
    cut: true as const,
  });
  if (ctx.deps.signal.aborted) return cut(0, 0);
  const interrupted = new Error('a gate of the round was cancelled');
  let round = 0;
  let failedRounds = 0;
  let verdict: Awaited<ReturnType<typeof gateRounds>>;
  try {
    verdict = await gateRounds(
      rollout.analysis!,
      (ms) => ctx.deps.sleep(ms, ctx.deps.signal),
      async (r) => {
        round = r;
        const failures: string[] = [];
        let ran = 0;
        for (const [step, runs] of gateSteps) {
          for (const gate of runs.filter((g) => values.includes(String(g.matrix?.[rollout.over])))) {
            const run = roundRun(gate, wave, r, count);
            out.push(run);
            await runInstance(
              { ...ctx, status: { failed: false, cancelled: false } },
              step,
              run,
              stepPosition(ctx, step),
            );
            if (run.outcome === 'failure') failures.push(`${run.name}: ${run.error?.message ?? 'failed'}`);
            if (run.outcome === 'success' || run.outcome === 'failure') ran += 1;
            // A gate that did not run to its end read nothing: the round failed by what failed before
            // it (a verdict the interruption does not take back), else it holds none.
            if (run.outcome === 'cancelled' && failures.length === 0) throw interrupted;
            if (run.outcome === 'cancelled') break;
          }
          if (failures.length > 0 && ctx.deps.signal.aborted) break;
        }
        // A round in which no gate ran (each skipped by its if:) read nothing: it did not hold.
        if (ran === 0 && failures.length === 0 && !ctx.deps.signal.aborted)
          failures.push(`no gate ran (${gates.join(', ')}: each skipped by its if:), so nothing was read`);
        if (failures.length > 0) failedRounds += 1;
        return failures;
      },
      // A failed round within the limit does not fail the run: the limit let it pass.
      (r) =>
        out
          .filter((run) => run.round === r && run.wave === wave && run.outcome === 'failure')
          .forEach((run) => (run.continuedOnError = true)),
    );
  } catch (error) {
    if (error === interrupted) return cut(round - 1, failedRounds);
    throw error;
  }
  // A failure the rounds saw before the interruption stands; a pass the interruption cut short is none.
  if (verdict.cancelled || (ctx.deps.signal.aborted && verdict.passed))
    return cut(verdict.rounds, verdict.failedRounds);
  return { passed: verdict.passed, rounds: verdict.rounds, failedRounds: verdict.failedRounds, text: verdict.text };
}
