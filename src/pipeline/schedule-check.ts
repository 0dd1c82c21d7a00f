// The semantic rule of a schedule (windows:, freezes:): each cron expression is one croner reads,
// each zone an IANA zone this runtime knows, a recurring freeze has its duration, a dated range its
// dates in order, and a selector names a matrix key some step has. Each finding in the file that
// defines it (the pipeline, or an inventory it includes).
import { cronProblem, instantOf, zoneProblem } from '../schedule/recurrence.ts';
import { parseDuration } from '../duration.ts';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { PipelineFile } from './schema.ts';
import type { YamlSource } from './yaml-doc.ts';

type Entry = {
  cron?: string | undefined;
  duration?: string | undefined;
  zone: string;
  dates?: { from: string; to: string }[] | undefined;
  matrix?: Record<string, unknown> | undefined;
};

export function scheduleProblems(
  doc: PipelineFile,
  src: (kind: 'windows' | 'freezes', name: string) => YamlSource,
  own: YamlSource,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const keys = [...new Set((doc.steps ?? []).flatMap((s) => Object.keys(s?.matrix ?? {})))];
  // The values the steps give a matrix key, and every value a list var of the files holds (a --var
  // that narrows the sites run narrows no window), as their instances name them.
  const listed = Object.values(doc.vars ?? {})
    .filter(Array.isArray)
    .flat();
  const valuesOf = (key: string) =>
    new Set([...(doc.steps ?? []).flatMap((s) => [s?.matrix?.[key] ?? []].flat()), ...listed].map((v) => String(v)));
  for (const kind of ['windows', 'freezes'] as const) {
    for (const [name, raw] of Object.entries((doc[kind] ?? {}) as Record<string, Entry>)) {
      if (!raw || typeof raw !== 'object') continue;
      const source = src(kind, name);
      const path = [kind, name];
      const zone = zoneProblem(raw.zone);
      if (zone) out.push(at(source, [...path, 'zone'], zone, 'an IANA zone: Continent/City, or UTC'));
      if (raw.cron !== undefined) {
        const problem = cronProblem(raw.cron);
        if (problem)
          out.push(
            at(
              source,
              [...path, 'cron'],
              `the cron expression "${raw.cron}" is not valid: ${problem}`,
              'minute hour day-of-month month day-of-week: "0 2 * * SAT#3" is 02:00 on the third Saturday',
            ),
          );
        // A window's duration is required by the schema, which says so; a freeze's only when it recurs.
        if (raw.duration === undefined && kind === 'freezes')
          out.push(at(source, path, `freeze "${name}" recurs (cron) but has no duration`, 'add duration: 6h', true));
      } else if (kind === 'freezes' && raw.dates === undefined)
        out.push(
          at(source, path, `freeze "${name}" has neither cron nor dates`, 'give cron: with duration:, or dates:', true),
        );
      (raw.dates ?? []).forEach((range, i) => {
        const from = instantOf(range.from, raw.zone);
        // Read as from is (its earliest instant): a range that ends before it begins is refused on the fall-back night too.
        const to = instantOf(range.to, raw.zone);
        for (const [end, value] of [
          ['from', from],
          ['to', to],
        ] as const)
          if (value === undefined && !zone)
            out.push(
              at(
                source,
                [...path, 'dates', i, end],
                `"${range[end]}" is no date: write 2026-12-20, 2026-12-20T18:00 or 2026-12-20T18:00:00Z`,
              ),
            );
        if (from !== undefined && to !== undefined && to <= from)
          out.push(
            at(source, [...path, 'dates', i, 'to'], `the range ends (${range.to}) before it begins (${range.from})`),
          );
      });
      if (kind === 'windows' && raw.duration !== undefined && parseDuration(raw.duration) === 0)
        out.push(
          at(
            source,
            [...path, 'duration'],
            'a window of 0s admits no write',
            'give it the time a write takes, e.g. duration: 4h',
          ),
        );
      for (const [key, listed] of Object.entries(raw.matrix ?? {})) {
        const entry = kind === 'windows' ? 'window' : 'freeze';
        if (!keys.includes(key)) {
          const guess = didYouMean(key, keys);
          out.push(
            at(
              source,
              [...path, 'matrix', key],
              `no step has a matrix over "${key}": the ${entry} applies to nothing`,
              guess ? `did you mean "${guess}"?` : keys.length ? `matrix keys: ${keys.join(', ')}` : undefined,
              true,
            ),
          );
          continue;
        }
        // A window an inventory shares names the fleet's sites, not only this pipeline's.
        if (source !== own) continue;
        const known = valuesOf(key);
        [listed].flat().forEach((value, i) => {
          if (known.has(String(value))) return;
          const guess = didYouMean(String(value), [...known]);
          out.push(
            at(
              source,
              [...path, 'matrix', key, ...(Array.isArray(listed) ? [i] : [])],
              `${JSON.stringify(value)} is no value of ${key}: the ${entry} applies to no instance of it`,
              guess ? `did you mean "${guess}"?` : `values of ${key}: ${[...known].join(', ')}`,
            ),
          );
        });
      }
    }
  }
  return out;
}
