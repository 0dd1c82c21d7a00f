// A dry run (run --dry-run, plan without --live, an action's dry-run: true) sends nothing, so it
// needs no secret's value: each secret the run would need and the environment does not set (or a
// single-step action's credential input left empty) stands in, with a value that is masked as every
// secret is, so the plan reads *** as it would with the real one. The dry run names them in a
// warning: a run needs them. What a dry run shows (env.NAME) is not stood in for.
import type { Env } from '../environment.ts';

/** What stands in for a secret a dry run is not given: never shown (masked), never sent. */
export const STAND_IN = 'enginectl-dry-run-stand-in-not-sent';

/** `env` with the stand-in for each secret of `names` (none of which it sets). */
export function withStandIns(env: Env, names: readonly string[]): Env {
  return names.length === 0 ? env : { ...env, ...Object.fromEntries(names.map((name) => [name, STAND_IN])) };
}

/** The warning of a dry run that stood in for `what` (secrets.NAME, input NAME); undefined for none. */
export function standInWarning(what: readonly string[]): string | undefined {
  if (what.length === 0) return undefined;
  const one = what.length === 1;
  return `not set: ${what.join(', ')}; the dry run shows ${one ? 'it' : 'them'} masked (it sends nothing), and a run needs ${one ? 'it' : 'them'}`;
}
