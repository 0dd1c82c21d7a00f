// An operator's reason (decide --reason, the abort of a sharded run, lease release --reason) is
// masked with the secrets of the pipeline it is about, their values read from the environment of
// the shell it is given in. An operator may decide from a shell without them (decide reads with
// the servers' credentials only): a secret that environment does not hold cannot be masked, and a
// reason that holds its value is kept as given. Said, by the secrets' names (never a value), with
// what to do. Every reader that shows the reason masks it again with the secrets it knows
// (reader-secrets.ts), as the run that goes on does.
import type { Pipeline } from '../pipeline/model.ts';

/** The pipeline's secrets (secrets.NAME) that `env` does not hold, by name, in order. */
export function unsetSecrets(pipeline: Pipeline, env: Readonly<Record<string, string | undefined>>): string[] {
  return [...new Set(pipeline.secrets)]
    .filter((name) => !env[name])
    .sort()
    .map((name) => `secrets.${name}`);
}

/**
 * The warning of `command` (decide, release) given a reason where some of the pipeline's secrets
 * are not set: undefined when every one is.
 */
export function unsetSecretsWarning(
  pipeline: Pipeline,
  env: Readonly<Record<string, string | undefined>>,
  command: string,
): string | undefined {
  const unset = unsetSecrets(pipeline, env);
  if (unset.length === 0) return undefined;
  const [names, verb, which, them] =
    unset.length === 1 ? [unset[0]!, 'is', 'it', unset[0]!] : [unset.join(', '), 'are', 'one of them', 'them'];
  return `the reason is masked with the pipeline's secrets this environment holds: ${names} ${verb} not set here: a value of ${which} in the reason is recorded as given; ${command} from a shell with ${them} set, or leave ${unset.length === 1 ? 'it' : 'them'} out of the reason`;
}
