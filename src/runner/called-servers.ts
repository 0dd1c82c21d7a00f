// The servers a run calls: each step that needs one names it, at each instance the selection keeps
// (its own `server:`, or an expression resolved with the instance's matrix), each yielded once, as
// first met, in file order. A name that is no server is refused (UNKNOWN_SERVER). The run opens a
// client for each up front (run-pipeline.ts), so one the client refuses stops it before its first
// call; validate --check-env checks the same servers the same way (app/check-env.ts).
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { InstanceSet } from './instance-set.ts';
import { serverName, type ResolvedServer } from './scope.ts';

export function* calledServers(
  pipeline: Pipeline,
  servers: ReadonlyMap<string, ResolvedServer>,
  base: Record<string, unknown>,
  instances: InstanceSet,
): Generator<ResolvedServer> {
  const met = new Set<string>();
  for (const step of pipeline.steps) {
    if (step.server === undefined || !STEP_TYPES.get(step.uses)?.needsServer) continue;
    for (const { combination: c } of instances.steps[step.index]!) {
      const name = serverName(step, c, base);
      const server = name === undefined ? undefined : servers.get(name);
      if (!server) {
        throw new UsageError(
          'UNKNOWN_SERVER',
          `step ${step.index + 1}: server ${String(step.server).trim()} is "${name ?? ''}", which names no server`,
          { hint: `servers: ${[...servers.keys()].join(', ') || 'none'}` },
        );
      }
      if (met.has(server.name)) continue;
      met.add(server.name);
      yield server;
    }
  }
}
