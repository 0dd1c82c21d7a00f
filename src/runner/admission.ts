// Admission per write: before a write instance starts, its expected end must fit its window
// (pipeline-format.md, Windows and freezes). The instance's schedule (schedule/spec.ts), its
// expected duration (declared, the p95 of earlier ones, its timeout, an hour) plus the margin, the
// verdict at the run's clock (simulated under --emulator; the real one's later of it and the wall
// clock: schedule/window-time.ts). A write that does not fit is refused with the next window it
// fits in, unless an allowed identity overrode (--override-freeze, recorded on the instance and as
// a warning every report shows). Reads are never held back.
import { formatDuration } from '../duration.ts';
import type { Step } from '../pipeline/model.ts';
import { expectedOf, type Expected } from '../schedule/expected.ts';
import { fits, nextFit, type Schedule, type Verdict } from '../schedule/schedule.ts';
import { needOf, scheduleFor, type ScheduleSpec } from '../schedule/spec.ts';
import { windowTime } from '../schedule/window-time.ts';
import { isReadOnly } from '../steps/registry.ts';
import type { StepType } from '../steps/types.ts';
import type { WindowVerdict } from './instance.ts';
import { maskOverride } from './mask-model.ts';
import { WINDOW_OVERRIDDEN, type StepError, type StepRun } from './result.ts';
import type { RunContext, RunnerDeps } from './run-context.ts';
import { parkForWindow } from './window-park.ts';
import { awaitQuiet } from './quiet-gate.ts';
import { stopped } from './instance-end.ts';
import { matchingRule, ruleText, rulesText } from '../schedule/override.ts';
import { CLI_WAYS } from '../ways-on.ts';

export const iso = (ms: number | undefined) =>
  ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();

/** Why a verdict does not fit, for a person. */
export function whyNot(v: Exclude<Verdict, { fits: true }>, need: number): string {
  if (v.why === 'closed') return 'no window of its site is open';
  if (v.why === 'overrun')
    return `it needs ${formatDuration(need)} and would overrun its window (ending ${iso(v.end)}) by ${formatDuration(v.byMs)}`;
  return `freeze "${v.freeze}" holds from ${iso(v.from)} until ${iso(v.until)}`;
}

/** What a write instance is judged by: its schedule, expected duration, need and the verdict at `now`. */
export interface Judgement {
  schedule: Schedule;
  expected: Expected;
  need: number;
  verdict: Verdict;
}

/**
 * How a write instance stands at `now` (undefined for a read, or an instance no window or freeze
 * applies to): the run's admission and the plan's windows read this one judgement.
 */
export function judge(
  spec: ScheduleSpec | undefined,
  step: Step,
  type: StepType,
  instance: { matrix?: Record<string, string | number | boolean> | undefined; server?: string | undefined },
  now: number,
  history?: RunnerDeps['history'],
): Judgement | undefined {
  // A read (as written: an api/request whose method is an expression counts as a write) is never held back.
  if (!spec || isReadOnly(type, step.with ?? {})) return undefined;
  const schedule = scheduleFor(spec, instance.matrix);
  if (schedule.windows.length === 0 && schedule.freezes.length === 0) return undefined;
  const expected = expectedOf({
    declaredMs: step.expectedMs,
    history: history?.(step.uses, instance.server),
    timeoutMs: step.timeoutMs,
    longestMs: step.longestMs,
  });
  const need = needOf(expected.ms, spec.margin);
  return { schedule, expected, need, verdict: fits(schedule, now, need) };
}

/** Where an expected duration came from, for a person. */
export function expectedSource(expected: Expected): string {
  if (expected.source === 'history') return `the p95 of ${expected.samples} earlier writes`;
  if (expected.source === 'declared') return 'expected:';
  if (expected.source === 'default') return 'the default for a write without history';
  return `its ${expected.source}:`;
}

/**
 * The admission of a write instance: undefined when it may start (it fits, after the quiet its
 * window asks for, or an allowed override lets it), else the error it is refused with (or parks
 * the run with). Fills `run.window` whenever the pipeline has a schedule.
 */
export async function admit(ctx: RunContext, step: Step, run: StepRun, type: StepType): Promise<StepError | undefined> {
  const spec = ctx.pipeline.schedule;
  // Without windows or freezes, or for a read, the clock is not even read.
  if (!spec || isReadOnly(type, step.with ?? {})) return undefined;
  const judgedAt = windowTime(ctx.deps);
  const judged = judge(spec, step, type, run, judgedAt, ctx.deps.history);
  if (!judged) return undefined;
  let verdict = judged.verdict;
  let now = judgedAt;
  let waitedMs = 0;
  let staying: string[] = [];
  // Inside a window that asks for quiet: wait for it while the write still fits.
  if (verdict.fits) {
    try {
      const quiet = await awaitQuiet(ctx, run, judged, judgedAt);
      ({ verdict, waitedMs, staying } = quiet);
      now = quiet.at;
    } catch (error) {
      if (ctx.deps.signal.aborted) return stopped(ctx.deps.signal);
      throw error;
    }
  }
  // A continue after a window park: its first write admitted carries the wait since the park.
  const parkedAt = ctx.resume?.parked?.park;
  if (parkedAt?.for === 'window' && verdict.fits && !ctx.windowPark.counted) {
    ctx.windowPark.counted = true;
    waitedMs += Math.max(0, judgedAt - parkedAt.since);
  }
  return verdictOn(ctx, spec, run, judged, { verdict, now, waitedMs, staying });
}

/**
 * A write admitted judged again as it leaves, after the reads made since its admission (the
 * snapshot verify compares against, which a slow API may make last minutes): undefined when
 * it still fits (or an override let it start), else the refusal admission gives. A read, or a
 * write no window or freeze applies to, was not judged and is not.
 */
export async function admitAtLeave(ctx: RunContext, step: Step, run: StepRun, type: StepType) {
  const spec = ctx.pipeline.schedule;
  if (!spec || !run.window || run.window.override) return undefined;
  const now = windowTime(ctx.deps);
  const judged = judge(spec, step, type, run, now, ctx.deps.history);
  if (!judged || judged.verdict.fits) return undefined;
  return verdictOn(ctx, spec, run, judged, { verdict: judged.verdict, now, waitedMs: 0, staying: [] });
}

/** The instance's window as judged `now` (run.window), and unless it fits, what it is refused with (or parks, or an override lets it start). */
async function verdictOn(
  ctx: RunContext,
  spec: ScheduleSpec,
  run: StepRun,
  { schedule, expected, need }: Judgement,
  { verdict, now, waitedMs, staying }: { verdict: Verdict; now: number; waitedMs: number; staying: string[] },
): Promise<StepError | undefined> {
  const window: WindowVerdict = {
    verdict: verdict.fits ? 'fits' : verdict.why,
    at: iso(now)!,
    expectedMs: expected.ms,
    expectedFrom: expected.source,
    needMs: need,
    windowEnd: verdict.fits || verdict.why === 'overrun' ? iso(verdict.end) : undefined,
    ...(verdict.fits === false && verdict.why === 'frozen'
      ? { freeze: verdict.freeze, frozenUntil: iso(verdict.until) }
      : {}),
    ...(waitedMs > 0 ? { waitedMs } : {}),
    ...(staying.length > 0 ? { staying: staying.map((s) => ctx.masker.mask(s)) } : {}),
  };
  run.window = window;
  if (verdict.fits) return undefined;
  // Masked here: a session's user name may be a secret's value, and this text reaches the journal.
  const quietWhy =
    staying.length > 0
      ? `the application was not quiet (${staying.length} session(s) stayed: ${window.staying!.slice(0, 3).join(', ')}${staying.length > 3 ? ', ...' : ''}) after ${formatDuration(waitedMs)} of waiting, and now `
      : '';
  const why = `${quietWhy}${whyNot(verdict, need)}`;
  const override = ctx.deps.windowOverride;
  const rule = override && matchingRule(spec.overrideFreeze, override.identity);
  if (override && rule) {
    // Masked as it is kept: the instance's end record holds them as they are.
    const { masker } = ctx;
    window.override = maskOverride(masker, { by: override.by, reason: override.reason, as: ruleText(rule) });
    run.warnings = [
      ...run.warnings,
      masker.mask(`${WINDOW_OVERRIDDEN} ${override.by} for "${override.reason}": ${why}`),
    ];
    ctx.tell.warn(run, run.warnings.at(-1)!);
    // On disk before the write leaves: the journal holds who overrode, why and what, ahead of it.
    await ctx.tell.overridden(run, { ...window.override, why: masker.mask(why) });
    return undefined;
  }
  const next = nextFit(schedule, now, need);
  window.next = iso(next);
  const source = expectedSource(expected);
  // With a run store, the run parks until the next window it fits in: nothing after it starts.
  if (ctx.park && next !== undefined) return parkForWindow(ctx, run, next, why);
  return {
    code: 'WINDOW_CLOSED',
    message: `not started: ${why}; ${next === undefined ? 'no window within 400 days fits it' : `the next window it fits in opens at ${iso(next)}`}`,
    hint: `its write is expected to take ${formatDuration(expected.ms)} (${source}) plus the margin; run it then${overrideWay(spec.overrideFreeze, (ctx.deps.ways ?? CLI_WAYS).overrideFreeze)}`,
  };
}

/** The hint's way around a closed window: an override as one the pipeline allows, or that it allows none. */
export function overrideWay(rules: ScheduleSpec['overrideFreeze'], way: string): string {
  if (rules.length === 0) return " (no override is allowed: the pipeline's override-freeze: lists no one)";
  return `, or with ${way} as one of override-freeze: (${rulesText(rules)})`;
}
