// The dry run as text: each step instance with its condition, and each call it would make; a
// rollout's waves, and per site the next window and which writes fit in it.
import { formatDuration } from '../duration.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { expectedSource, iso, judge, whyNot } from '../runner/admission.ts';
import { allowedAt, freezeOver, nextFit, nextOpening, windowEnd } from '../schedule/schedule.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { EVERY_INSTANCE, inRollout, type Selection } from '../pipeline/selection.ts';
import { instanceSet } from '../runner/instance-set.ts';
import type { PlannedStep } from '../runner/plan.ts';
import type { RunnerDeps } from '../runner/run-context.ts';
import { budgetOf, wavesOf } from '../runner/waves.ts';
import { indentLines } from '../text/neutralise.ts';

/** A placeholder in a path reads as written, not URL-encoded: <steps.find.outputs.entities[0].ikey>. */
function readablePath(path: string): string {
  return path.replace(/%3Csteps(?:[.\w-]|%5B\d+%5D)*%3E/gi, (m) => decodeURIComponent(m));
}

const LIVE_WORDS: Record<NonNullable<PlannedStep['live']>['state'], string> = {
  holds: 'holds',
  'would-wait': 'would wait',
  'fails-now': 'FAILS NOW',
  'after-writes': 'after the writes above, checked now',
  'not-sent': 'not sent',
  'not-read': 'not read',
};

export function renderPlan(plan: PlannedStep[]): string {
  const lines: string[] = [];
  // Names and the server's words, from outside: a line break in one starts no line of the plan's.
  const under = (text: string) => indentLines(text, '      ');
  for (const p of plan) {
    lines.push(indentLines(`${p.position} ${p.name} (${p.uses})${p.server ? ` on server ${p.server}` : ''}`));
    if (p.condition)
      lines.push(`    if: ${under(p.condition)}${p.runs ? '' : '  (false when every step before succeeds)'}`);
    for (const how of p.how) lines.push(`    ${how}`);
    for (const c of p.calls) {
      const query =
        c.query && Object.keys(c.query).length
          ? `?${new URLSearchParams(Object.entries(c.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
          : '';
      lines.push(
        `    ${c.method} ${readablePath(c.path)}${query}${c.contentType && c.contentType !== 'application/json' ? ` (${c.contentType})` : ''}`,
      );
      if (c.body !== undefined)
        lines.push(
          ...(typeof c.body === 'string' ? c.body : JSON.stringify(c.body, null, 2))
            .split('\n')
            .map((l) => `      ${l}`),
        );
    }
    if (p.calls.length === 0 && !p.note) lines.push('    (no API call)');
    if (p.note) lines.push(`    note: ${under(p.note)}`);
    if (p.live) lines.push(`    now: ${LIVE_WORDS[p.live.state]}: ${under(p.live.text)}`);
    if (p.live?.unprovable) lines.push(`    unverified until it is sent: ${under(p.live.unprovable)}`);
  }
  return lines.join('\n');
}

/** A rollout's waves as the plan shows them, before the steps: what runs in which wave, and its budget. */
export function renderWaves(pipeline: Pipeline, selection: Selection = EVERY_INSTANCE): string {
  const rollout = pipeline.rollout;
  if (!rollout) return '';
  const values = [
    ...new Set(
      pipeline.steps.flatMap((s) =>
        inRollout(rollout, s)
          ? instanceSet(pipeline, selection).steps[s.index]!.map((i) => String(i.combination[rollout.over]))
          : [],
      ),
    ),
  ];
  const waves = wavesOf(rollout, values);
  const analysis = rollout.analysis
    ? `; between waves: ${rollout.analysis.gates.join(', ')}, ${rollout.analysis.count} round(s) ${rollout.analysis.intervalMs / 60_000}m apart, ${rollout.analysis.failureLimit} may fail`
    : '';
  const lines = [
    `rollout over ${rollout.over}: ${waves.length} wave(s), at most ${rollout.maxParallel} at once${analysis}`,
  ];
  waves.forEach((w, i) =>
    lines.push(`  wave ${i + 1}: ${w.join(', ')} (${budgetOf(rollout.maxFailures, w.length)} may fail)`),
  );
  return `${lines.join('\n')}\n`;
}

/** Per site (matrix values), at `now`: its window now or the next opening, and whether each write fits. */
export function renderWindows(
  pipeline: Pipeline,
  selection: Selection = EVERY_INSTANCE,
  now = Date.now(),
  /** Earlier write durations (--history) by step type and server, and each instance's server by its key: the need as the run reads it. */
  read: { history?: RunnerDeps['history']; serverOf?: (key: string) => string | undefined } = {},
): string {
  const spec = pipeline.schedule;
  if (!spec) return '';
  const sites = new Map<string, string[]>();
  const set = instanceSet(pipeline, selection);
  for (const step of pipeline.steps)
    for (const { combination, key } of set.steps[step.index]!) {
      const instance = { matrix: combination, server: read.serverOf?.(key) };
      const judged = judge(spec, step, STEP_TYPES.get(step.uses)!, instance, now, read.history);
      if (!judged) continue;
      const site =
        Object.entries(combination)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ') || 'every instance';
      const lines = sites.get(site) ?? [];
      if (lines.length === 0) {
        const end = windowEnd(judged.schedule, now);
        const open = allowedAt(judged.schedule, now);
        const next = open ? undefined : nextOpening(judged.schedule, now);
        // A freeze beats every window: one that begins before the window ends closes the site then.
        const freeze = open ? freezeOver(judged.schedule, now, (end ?? now) - now) : undefined;
        const until = freeze
          ? `open until ${iso(freeze.start)} (freeze "${freeze.name}" from then${end === Infinity ? '' : `; the window ends ${iso(end)}`})`
          : end === Infinity
            ? 'open (no window; no freeze now)'
            : `open until ${iso(end)}`;
        lines.push(`  ${site}: ${open ? until : `closed; next opening ${iso(next) ?? 'none within 400 days'}`}`);
      }
      const { verdict, need, expected } = judged;
      const label = `[${step.index + 1}/${pipeline.steps.length}] ${step.id ?? step.uses}: needs ${formatDuration(need)} (${expectedSource(expected)})`;
      const at = verdict.fits ? undefined : nextFit(judged.schedule, now, need);
      lines.push(
        verdict.fits
          ? `    ${label}: fits now`
          : `    ${label}: not now, ${whyNot(verdict, need)}; fits from ${iso(at) ?? 'no window within 400 days'}`,
      );
      sites.set(site, lines);
    }
  if (sites.size === 0) return '';
  return `windows at ${iso(now)}:\n${[...sites.values()].flat().join('\n')}\n`;
}
