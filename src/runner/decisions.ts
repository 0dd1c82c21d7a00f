// The operator's decisions about a parked rollout's waves, as a run going on reads them: what was
// decided about a wave or a value at each of its parks, in the journal's order (never a clock's): a
// retry acted on once, a continue that went past a wave's failures, a word that holds after a later park.
import type { OperatorDecision } from './rollout-result.ts';
import type { RunContext } from './run-context.ts';
import type { StepRun } from './result.ts';

/**
 * The operator's decisions about a wave: those about the wave this run parked at, since it parked,
 * after its words about a value at an earlier park of that wave (an exclude holds when the wave
 * parks again past its budget); for a wave before it (the run went past it at an earlier park),
 * every decision made about that wave, so a value left out of it stays out after a later park. A
 * word about a value that a later park of the wave waited on again (a retry that failed again)
 * gives way to what was decided there.
 */
export function decisionsAt(ctx: RunContext, wave: number): readonly OperatorDecision[] {
  const parked = ctx.resume?.parked;
  if (parked && wave > parked.park.wave) return [];
  const here = parked?.park.wave === wave;
  if (!ctx.resume?.parks) return here ? parked!.decided : (ctx.resume?.decided ?? []).filter((d) => d.wave === wave);
  const parks = [
    ...ctx.resume.parks.filter((p) => p.park.wave === wave && p.park !== parked?.park),
    ...(here ? [parked!] : []),
  ];
  const waitedAfter = (i: number, value: string) =>
    parks.slice(i + 1).some((p) => p.park.waits.some((w) => w.value === value));
  return parks.flatMap((p, i) =>
    p.decided.filter((d) => (d.value === null ? !here || p === parked : !waitedAfter(i, d.value))),
  );
}

/** The parks of a wave in order: the earlier ones, then the one the run parked at when it is that wave's. */
function parksOfWave(ctx: RunContext, wave: number) {
  const parked = ctx.resume?.parked;
  if (parked && wave > parked.park.wave) return [];
  const earlier = (ctx.resume?.parks ?? []).filter((p) => p.park.wave === wave && p.park !== parked?.park);
  return [...earlier, ...(parked?.park.wave === wave ? [parked] : [])];
}

/**
 * A wave's continue that covers `value`, its failure left as it was: decided at a park of that wave
 * that waited on the value (the one the run parked at, or an earlier one there).
 */
export function continuedFor(ctx: RunContext, wave: number, value: string): OperatorDecision | undefined {
  return parksOfWave(ctx, wave)
    .filter((p) => p.park.waits.some((w) => w.value === value))
    .flatMap((p) => p.decided.filter((d) => d.decision === 'continue'))
    .at(-1);
}

/**
 * Whether a failed value of the wave no longer counts against its budget: the operator's last word
 * covering it is a continue of the wave, said at a park that waited on the value, or on the wave
 * past its budget once the value had failed (an excluded value counts until then). A word about the
 * value itself since (a retry, an exclude) counts it again.
 */
export function wentPast(ctx: RunContext, wave: number, value: string): boolean {
  let failedBefore = false;
  let past = false;
  for (const p of parksOfWave(ctx, wave)) {
    const covers = p.park.waits.some((w) => w.value === value || (w.value === null && failedBefore));
    for (const d of p.decided) {
      if (d.value === value) past = false;
      else if (d.decision === 'continue' && covers) past = true;
    }
    failedBefore ||= p.park.waits.some((w) => w.value === value);
  }
  return past;
}

/** Whether the operator said to go on past this wave (its failures, its bake, its analysis). */
export const goesOn = (ctx: RunContext, wave: number): boolean =>
  decisionsAt(ctx, wave).some((d) => d.decision === 'continue');

/** The operator's decision about a value of the wave, the last one said. */
export const decidedFor = (ctx: RunContext, wave: number, value: string): OperatorDecision | undefined =>
  decisionsAt(ctx, wave).findLast((d) => d.value === value);

/**
 * Whether the operator's last word about a value of the wave is to retry it, said after the failed
 * write's last start (at `startedIn` in the journal): a retry acted on already, its write failed again
 * in the run that acted on it (started after the retry was recorded), is not said again; one said
 * again after that is. Told apart by the journal's order of records, never by a clock: neither the
 * decider's nor the runners' (a continue's runner whose clock is behind the first's is still the later run).
 */
export function retriedSince(ctx: RunContext, wave: number, value: string, startedIn: number | undefined): boolean {
  const word = decidedFor(ctx, wave, value);
  if (word?.decision !== 'retry') return false;
  const said = ctx.resume?.parks?.flatMap((p) =>
    p.decided.filter((d) => sameDecision(d, word)).map((d) => p.seqOf?.get(d)),
  );
  const at = said?.at(-1);
  return at === undefined || startedIn === undefined || startedIn < at;
}

/** One decision record read twice (by the park it stood at, and by the decisions in effect). */
const sameDecision = (a: OperatorDecision, b: OperatorDecision) =>
  a.at === b.at && a.by === b.by && a.value === b.value && a.wave === b.wave;

/** Whether a value's failure was sent in this run (it counts whatever was said before), not carried from an earlier one (the words decide: wentPast). */
export const failedHere = (runs: readonly (readonly [unknown, readonly StepRun[]])[]): boolean =>
  runs.some(([, rs]) => rs.some((r) => r.outcome === 'failure' && r.resume !== 'earlier-run'));
