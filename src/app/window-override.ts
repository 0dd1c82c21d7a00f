// --override-freeze --reason (the run command) and the action's override-freeze and
// override-reason inputs: who overrides a write's window, and why, refused (exit 2, nothing sent)
// unless the CI's identity meets a rule of the pipeline's override-freeze: (schedule/override.ts).
import { identityOf } from '../ci/facts.ts';
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { WindowOverride } from '../runner/run-context.ts';
import { identityText, matchingRule, rulesText } from '../schedule/override.ts';
import type { Env } from '../runner/scope.ts';

/** --override-freeze --reason: who overrides and why, refused (exit 2) for an identity the pipeline does not list. */
export function windowOverride(
  pipeline: Pipeline,
  values: { 'override-freeze'?: boolean | undefined; reason?: string | undefined },
  env: Env,
  where: { flag: string; reason: string; reasonAlone?: boolean } = {
    flag: 'run: --override-freeze',
    reason: '--reason',
  },
): WindowOverride | undefined {
  // The action's override-reason is the override's alone (the CLI's --reason is also a takeover's).
  if (!values['override-freeze'] && where.reasonAlone && values.reason?.trim())
    throw new UsageError('BAD_ARGUMENTS', `${where.reason} goes with ${where.flag}: true`, {
      hint: `set ${where.flag}: true to override a window or freeze, or leave ${where.reason} out`,
    });
  if (!values['override-freeze']) return undefined;
  const reason = values.reason?.trim();
  if (!reason)
    throw new UsageError('BAD_ARGUMENTS', `${where.flag} goes with ${where.reason} "why" (recorded in every report)`);
  const identity = identityOf(env);
  const allowed = pipeline.schedule?.overrideFreeze ?? [];
  if (!matchingRule(allowed, identity))
    throw new UsageError(
      'OVERRIDE_REFUSED',
      `${where.flag} by ${identityText(identity)}: the pipeline's override-freeze: ${allowed.length ? `lists ${rulesText(allowed, '; ')}` : 'lists no one'}; nothing was sent`,
      {
        hint: 'ask one of them to run it, or add your identity (the CI actor, or the facts of the CI identity: repository, ref, environment, workflow) to override-freeze:',
      },
    );
  return { by: identity.actor, reason, identity };
}
