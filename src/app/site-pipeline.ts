// One site of a sharded run as a pipeline of its own: each step over the rollout's key keeps that
// site's value alone, and the servers reached are those its instances name, so what a site's run
// expands, resolves and journals is the site's, not the fleet's (a fleet of N sites would
// otherwise cost N at every site). Where a step's server depends on more than its matrix, every
// server the pipeline reaches is kept: resolving too much is safe.
import { resolveDeep } from '../expr/index.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { expandMatrix } from '../pipeline/selection.ts';

type Step = Pipeline['steps'][number];

/**
 * The step with another matrix, its other properties as they are: a step's position is found in
 * the file when it is first asked for (a getter), and a spread would ask for it (a positioned
 * parse of the whole pipeline, in every worker, for a line no site's run prints).
 */
function withMatrix(step: Step, matrix: NonNullable<Step['matrix']>): Step {
  const descriptors = Object.getOwnPropertyDescriptors(step);
  return Object.defineProperties({}, { ...descriptors, matrix: { ...descriptors.matrix, value: matrix } }) as Step;
}

export function sitePipeline(pipeline: Pipeline, over: string, site: string): Pipeline {
  const steps = pipeline.steps.map((s) =>
    s.matrix && Object.hasOwn(s.matrix, over)
      ? withMatrix(s, { ...s.matrix, [over]: [...(valuesOf(s.matrix[over]!).get(site) ?? [])] })
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
      ? { ...pipeline.reach, servers: new Set([...named].filter((n) => pipeline.reach!.servers.has(n))) }
      : pipeline.reach;
  return { ...pipeline, rollout: undefined, steps, reach };
}

type Values = NonNullable<Pipeline['steps'][number]['matrix']>[string];

/** A matrix key's values by site, once per list (a worker's sites share it): a site's are found, not filtered from the fleet's. */
const bySite = new WeakMap<Values, Map<string, Values>>();
function valuesOf(values: Values): Map<string, Values> {
  let found = bySite.get(values);
  if (!found) {
    found = new Map();
    for (const v of values) {
      const same = found.get(String(v));
      if (same) same.push(v);
      else found.set(String(v), [v]);
    }
    bySite.set(values, found);
  }
  return found;
}
