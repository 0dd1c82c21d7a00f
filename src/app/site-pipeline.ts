// One site of a sharded run as a pipeline of its own: each step over the rollout's key keeps that
// site's value alone, and the servers reached are those its instances name, so what a site's run
// expands, resolves and journals is the site's, not the fleet's (a fleet of N sites would
// otherwise cost N at every site). Where a step's server depends on more than its matrix, every
// server the pipeline reaches is kept: resolving too much is safe.
import { resolveDeep } from '../expr/index.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { expandMatrix } from '../pipeline/selection.ts';

export function sitePipeline(pipeline: Pipeline, over: string, site: string): Pipeline {
  const steps = pipeline.steps.map((s) =>
    s.matrix && Object.hasOwn(s.matrix, over)
      ? { ...s, matrix: { ...s.matrix, [over]: s.matrix[over]!.filter((v) => String(v) === site) } }
      : s,
  );
  const named = new Set<string>();
  let known = true;
  for (const step of steps) {
    if (step.server === undefined) continue;
    for (const combination of expandMatrix(step.matrix)) {
      try {
        const name = resolveDeep(step.server, { contexts: { matrix: combination } });
        if (typeof name === 'string') named.add(name);
        else known = false;
      } catch {
        known = false;
      }
    }
  }
  const reach =
    known && pipeline.reach
      ? { ...pipeline.reach, servers: new Set([...pipeline.reach.servers].filter((n) => named.has(n))) }
      : pipeline.reach;
  return { ...pipeline, rollout: undefined, steps, reach };
}
