// `enginectl decide --store URL --run ID --abort` of a sharded run: the rollout halts where it
// stands across every worker (app/shard-abort.ts), the operator's reason masked with the secrets
// of the pipeline its manifest names (or --pipeline), as one process's decision is.
import { resolve } from 'node:path';
import { ExitCode } from '../../errors.ts';
import { abortShardedRun } from '../../app/shard-abort.ts';
import { abortedBy } from '../../shard/abort.ts';
import { operatorOf, teachSecrets } from '../../app/journal-setup.ts';
import { loadPipelineFile, parseVars } from '../../app/pipeline-input.ts';
import { unsetSecretsWarning } from '../../app/reason-secrets.ts';
import { readManifest, shardKeys } from '../../shard/manifest.ts';
import { ciMasker } from '../ci-masker.ts';
import { checkRunId } from '../../journal/replica.ts';
import { neutraliseLines } from '../../text/neutralise.ts';
import type { RunStore } from '../../store/store.ts';
import { chooseCi, type CliIO } from '../io.ts';

/** Whether `run` names a sharded run of the store (its manifest is there); a string that is no run id is refused as one (exit 2). */
export const isShardedRun = async (store: RunStore, run: string) =>
  (await store.get(shardKeys(checkRunId(run)).manifest)) !== undefined;

export async function abortSharded(
  store: RunStore,
  run: string,
  io: CliIO,
  options: { reason?: string | undefined; pipeline?: string | undefined; vars?: string[] | undefined; now: number },
): Promise<number> {
  const manifest = await readManifest(store, run);
  const masker = ciMasker(chooseCi(io), (line) => io.stdout(`${line}\n`));
  const given = options.reason?.trim() ?? '';
  // A pipeline that cannot be read here (decided from another checkout), or a secret of it this
  // shell does not hold, leaves the reason as given: said (app/reason-secrets.ts).
  const said = given
    ? await loadPipelineFile(resolve(io.cwd, options.pipeline ?? manifest.file), io, {
        vars: parseVars(options.vars),
        readBack: new Set(),
        checkEnv: false,
      }).then(
        ({ pipeline }) => (teachSecrets(pipeline, io.env, masker), unsetSecretsWarning(pipeline, io.env, 'decide')),
        (error: Error) =>
          `the reason is recorded as given: the pipeline of the sharded run could not be read to mask its secrets in it (${error.message}); give --pipeline FILE`,
      )
    : undefined;
  if (said) io.stderr(`enginectl: warning: ${neutraliseLines(said)}\n`);
  const aborted = await abortShardedRun(store, run, {
    by: operatorOf(io.env),
    at: options.now,
    reason: given ? masker.mask(given) : 'no reason given',
  });
  io.stdout(
    `${neutraliseLines(`sharded run ${run}: the rollout halts at wave ${aborted.wave}: ${abortedBy(aborted.aborted)}`)}\n` +
      `no ${neutraliseLines(manifest.over)} starts after it on any worker; those running end as they stand, and each worker ends (exit 1)\n`,
  );
  return ExitCode.ok;
}
