// The semantic rule of a rollout (rollout:): its key is a matrix key of the steps it splits, the
// values its waves name are values of that key (each in one wave), rest is the last wave, its
// analysis gates are read-only steps of the rollout, and their interval is at least the monitoring
// refresh. A step's on-failure (halt, decide) is a rollout's word: a step no rollout splits has
// none.
import { parseDuration } from '../duration.ts';
import { MIN_INTERVAL_MS } from '../steps/inputs.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { PipelineFile } from './schema.ts';
import { inRollout } from './selection.ts';
import type { YamlSource } from './yaml-doc.ts';

/** A step's on-failure outside any rollout: no wave parks for it, so it would be ignored; refused. */
function stepOnFailureProblems(source: YamlSource, doc: PipelineFile): Diagnostic[] {
  const rollout = doc.rollout;
  return doc.steps.flatMap((s, index) =>
    s['on-failure'] === undefined || (rollout && inRollout(rollout, s))
      ? []
      : [
          at(
            source,
            ['steps', index, 'on-failure'],
            `on-failure: ${s['on-failure']} on step "${s.id ?? s.uses}", which no rollout splits: only a wave of a rollout parks for a decision`,
            rollout
              ? `give it a matrix over ${rollout.over} (the rollout's key), or drop on-failure here`
              : 'drop on-failure here, or add a rollout: over a matrix key of this step (see Parked runs in docs/pipeline-format.md)',
          ),
        ],
  );
}

export function rolloutProblems(source: YamlSource, doc: PipelineFile): Diagnostic[] {
  if (!Array.isArray(doc.steps)) return [];
  const onFailure = stepOnFailureProblems(source, doc);
  const rollout = doc.rollout;
  if (!rollout) return onFailure;
  const out: Diagnostic[] = [...onFailure];
  const split = doc.steps.map((s, index) => ({ s, index })).filter(({ s }) => inRollout(rollout, s));
  if (split.length === 0) {
    const keys = [...new Set(doc.steps.flatMap((s) => Object.keys(s.matrix ?? {})))];
    const guess = didYouMean(rollout.over, keys);
    return [
      ...out,
      at(
        source,
        ['rollout', 'over'],
        `no step has a matrix over "${rollout.over}": the rollout splits nothing`,
        guess
          ? `did you mean "${guess}"?`
          : keys.length
            ? `matrix keys: ${keys.join(', ')}`
            : 'give the steps of each site matrix: { site: [...] } and rollout.over: site',
      ),
    ];
  }
  const values = new Set(split.flatMap(({ s }) => s.matrix![rollout.over]!.map(String)));
  const named = new Map<string, number>();
  rollout.waves.forEach((wave, i) => {
    if (!Array.isArray(wave)) return;
    wave.forEach((value, j) => {
      const v = String(value);
      if (!values.has(v))
        out.push(
          at(
            source,
            ['rollout', 'waves', i, j],
            `"${v}" is no value of ${rollout.over} in the steps' matrices`,
            `values: ${[...values].join(', ')}`,
          ),
        );
      else if (named.has(v))
        out.push(
          at(
            source,
            ['rollout', 'waves', i, j],
            `"${v}" is in wave ${named.get(v)! + 1} already`,
            'a value is rolled out in one wave',
          ),
        );
      else named.set(v, i);
    });
  });
  // rest takes every value no other wave names: a wave after it (the canary) would run after the rest of the fleet.
  const rest = rollout.waves.indexOf('rest');
  if (rest >= 0 && rest < rollout.waves.length - 1) {
    const written = (w: (typeof rollout.waves)[number]) =>
      Array.isArray(w) ? `[${w.map(String).join(', ')}]` : String(w);
    const order = [...rollout.waves.filter((_, i) => i !== rest), 'rest' as const].map(written).join(', ');
    out.push(
      at(
        source,
        ['rollout', 'waves', rest],
        `rest is wave ${rest + 1} of ${rollout.waves.length}: it takes every value no other wave names, so the waves after it would run after the rest of the fleet`,
        `make rest the last wave: waves: [${order}]`,
      ),
    );
  }
  const analysis = rollout.analysis;
  (analysis?.gates ?? []).forEach((id, i) => {
    const step = split.find(({ s }) => s.id === id);
    const any = doc.steps.find((s) => s.id === id);
    if (!any) {
      const guess = didYouMean(
        id,
        doc.steps.flatMap((s) => (s.id ? [s.id] : [])),
      );
      out.push(
        at(
          source,
          ['rollout', 'analysis', 'gates', i],
          `no step has the id "${id}"`,
          guess ? `did you mean "${guess}"?` : "a gate is the id of a read-only step with the rollout's matrix key",
        ),
      );
    } else if (!step)
      out.push(
        at(
          source,
          ['rollout', 'analysis', 'gates', i],
          `step "${id}" has no matrix over ${rollout.over}: a gate checks the values a wave rolled out`,
        ),
      );
    else if (STEP_TYPES.get(step.s.uses)?.readOnly !== true)
      out.push(
        at(
          source,
          ['rollout', 'analysis', 'gates', i],
          `step "${id}" (${step.s.uses}) is not read-only: analysis only reads`,
          'use a check: monitoring/alerts, monitoring/engines, licensing/check, replication/check',
        ),
      );
  });
  const interval = analysis?.interval === undefined ? undefined : parseDuration(analysis.interval);
  if (interval !== undefined && interval < MIN_INTERVAL_MS)
    out.push(
      at(
        source,
        ['rollout', 'analysis', 'interval'],
        `interval ${analysis!.interval} is under 2m: monitoring data is refreshed every 2 minutes`,
        'interval: 2m or more',
      ),
    );
  return out;
}
