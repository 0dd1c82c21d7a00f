// The instances of a sharded run's sites that did not run, listed as one process lists them
// (cancelled, in their wave, with why) from the instances `enginectl shard` planned: what a halt or
// a park left not started (ROLLOUT_HALTED, ROLLOUT_PARKED), and what a run read under way has not
// run yet (UNDER_WAY, shard-under-way.ts says why).
import { reportStep, type Report, type ReportStep } from '../report/model.ts';
import { newInstance, type StepError } from '../runner/instance.ts';
import { haltedEarlier, parkedAt, pastBudget } from '../runner/rollout-result.ts';
import type { Manifest } from '../shard/manifest.ts';
import type { Planned } from './shard-instances.ts';

/** The planned instances of each site listed, as steps that did not run (cancelled, in their wave, with why): what a halt, a park or a run under way left. */
export function listedSteps(
  planned: readonly Planned[],
  over: string,
  sites: readonly { site: string; wave: number; error: StepError }[],
): ReportStep[] {
  const bySite = new Map(sites.map((s) => [s.site, s]));
  return planned.flatMap((identity) => {
    const listed = bySite.get(String(identity.matrix?.[over]));
    return listed
      ? [reportStep(newInstance({ ...identity, key: '' }, { wave: listed.wave, error: listed.error }))]
      : [];
  });
}

/**
 * The instances of the sites a halt (or a park) left not started, as one process's report lists
 * them (cancelled, and why), from the run's planned instances.
 */
export function notStarted(
  planned: readonly Planned[],
  manifest: Manifest,
  rollout: NonNullable<Report['rollout']>,
  unstarted: readonly { site: string; wave: number }[],
): ReportStep[] {
  const { halted, parked } = rollout;
  if (unstarted.length === 0 || (!halted && !parked)) return [];
  const why = (wave: number): StepError =>
    parked
      ? { code: 'ROLLOUT_PARKED', message: parkedAt(parked.wave, parked.reason) }
      : {
          code: 'ROLLOUT_HALTED',
          message:
            wave === halted!.wave
              ? pastBudget(wave, rollout.waves[wave - 1]!.failed.length, manifest.over, manifest.budgets[wave - 1]!)
              : haltedEarlier(halted!.wave),
        };
  return listedSteps(
    planned,
    manifest.over,
    unstarted.map((u) => ({ ...u, error: why(u.wave) })),
  );
}
