// validate --check-env: the checks of the environment a run makes before its first call, beyond
// those loading makes (every secrets.* and env.* set, a server given). The run's values resolved
// from the environment as the run resolves them (runner/scope.ts: a var, a server's URL or flags
// from an expression), then each server a step calls (runner/called-servers.ts) checked as its
// client checks it (api/callable-server.ts): a URL that cannot be called (BAD_SERVER_URL, as
// ENGINE_URL=https://host:99999 or credentials given twice) and credentials over plain http:// to
// another machine (INSECURE_HTTP), with the run's code and words. The same functions, not a copy:
// what validates is what runs. Under --emulator, the embedded emulator is every server: no URL of
// theirs is called, and none is checked.
import { callableServer } from '../api/callable-server.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { EVERY_INSTANCE } from '../pipeline/selection.ts';
import { calledServers } from '../runner/called-servers.ts';
import { instanceSet } from '../runner/instance-set.ts';
import type { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';

/** Throws the run's error (a UsageError) for what in `env` would stop `pipeline`'s run before its first call; `masker` learns its secrets. */
export function checkEnvironment(pipeline: Pipeline, env: Env, masker: Masker, emulator = false): void {
  const { contexts, servers } = prepareRun(pipeline, env, masker);
  for (const server of calledServers(pipeline, servers, contexts, instanceSet(pipeline, EVERY_INSTANCE)))
    if (!emulator) callableServer(server);
}
