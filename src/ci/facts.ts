// The facts of the job enginectl runs in, asked of every CI system the registry (detect.ts) knows,
// in its order: who acts, the checkout's root, the run's page, what a job matrix may hold. Each
// system states its own in its file in systems/; nothing here names a CI's variable.
import { CI_SYSTEMS } from './detect.ts';
import type { Env } from './system.ts';

const first = <T>(ask: (s: (typeof CI_SYSTEMS)[number]) => T | undefined): T | undefined => {
  for (const s of CI_SYSTEMS) {
    const found = ask(s);
    if (found !== undefined) return found;
  }
  return undefined;
};

/**
 * Who acts: the actor of the CI system that runs the job (detect.ts's order), else the user. Only
 * that system's: another's variable in the job (a GitLab pipeline variable GITHUB_ACTOR, a Jenkins
 * build parameter) is set by whoever starts the job, and names no one (an override, a decision).
 */
export function actorOf(env: Env): string {
  return CI_SYSTEMS.find((s) => s.detect(env))?.actor(env) ?? env.USER ?? env.USERNAME ?? 'unknown';
}

/** Who runs the job as override-freeze: rules match it: the actor, and the claims its CI system's environment says. */
export interface Identity {
  actor: string;
  /** The CI system that said it (plain outside CI). */
  system: string;
  claims: Partial<Record<'repository' | 'ref' | 'environment' | 'workflow', string>>;
}

export function identityOf(env: Env): Identity {
  const system = CI_SYSTEMS.find((s) => s.detect(env));
  const claims = Object.fromEntries(
    Object.entries(system?.claims?.(env) ?? {}).filter(([, v]) => v !== undefined && v !== ''),
  ) as Identity['claims'];
  return { actor: actorOf(env), system: system?.name ?? 'plain', claims };
}

/** The folder CI paths are relative to: the checkout's root (`cwd` outside CI). */
export function workspaceOf(env: Env, cwd: string): string {
  return first((s) => s.workspace(env)) ?? cwd;
}

/** The page of the running CI job, when its environment says. */
export function runUrlOf(env: Env): string | undefined {
  return first((s) => s.runUrl(env));
}

/** What a CI system would refuse of a job matrix this long, naming every system it is too long for. */
export function jobMatrixTooLong(jobs: number): string | undefined {
  const over = CI_SYSTEMS.flatMap((s) => (s.jobMatrixLimit && jobs > s.jobMatrixLimit.jobs ? [s.jobMatrixLimit] : []));
  if (over.length === 0) return undefined;
  return over.map((l, i) => `${l.what}${i === 0 ? ' runs at most' : ''} ${l.jobs}`).join(', ');
}

/** The CI run the job belongs to, the same on its re-runs (enginectl shard's key), when its environment says. */
export function runKeyOf(env: Env): string | undefined {
  return first((s) => s.runKey?.(env));
}
