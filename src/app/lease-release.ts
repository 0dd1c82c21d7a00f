// `enginectl lease release`: the operator's reason masked before it is said or kept in the lease,
// as `decide --reason` and `run --take-over --reason` mask theirs: with the secrets of the
// pipeline of the lease's holder, their values read from this environment (the operator's shell or
// job holds them as the runner's did). The pipeline is --pipeline FILE, else the file the holder's
// run named: its journal in the store (a fleet lease, a run's own lease), or, for a worker of a
// sharded run (`RUN.shard-I`, whose holder is an attempt with no journal), the run's manifest. A
// holder's pipeline that cannot be read (a runner lost before its first record, another checkout)
// leaves the reason as given, said (a journal or manifest this enginectl cannot read, damaged or a
// newer one's, with the hint every reader of the store gives), as does a secret of it this
// environment does not hold (named, never its value: reason-secrets.ts); a --pipeline FILE that
// cannot be read releases nothing, and neither does a store that fails as the holder's pipeline is
// looked for (STORE_FAILED): only a manifest or a journal that is not there is read as absent.
// `lease status` shows a release's reason masked again with the secrets of that same pipeline,
// their values from its environment, as every reader of an operator's kept words does
// (reader-secrets.ts): one kept as given (released from a shell without them) shows none of them.
import { resolve } from 'node:path';
import { EnginectlError, UsageError } from '../errors.ts';
import { passedOver } from '../journal/passed-over.ts';
import { readJournal } from '../journal/read.ts';
import { readStoredJournal, storedJournalAt } from '../journal/replica.ts';
import { journalKey } from '../journal/seal.ts';
import type { Masker } from '../runner/masker.ts';
import { Manifest, MANIFEST_VERSIONS, readShardRecord, shardKeys } from '../shard/manifest.ts';
import type { LeaseRecord } from '../store/lease.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import { teachSecrets } from './journal-setup.ts';
import { loadPipelineFile, parseVars } from './pipeline-input.ts';
import { unsetSecretsWarning } from './reason-secrets.ts';
import { storedWays } from '../ways-on.ts';

/** A record of the store this enginectl cannot read (damaged, a newer one's, sealed with another key): its hint says what to do. */
const UNREADABLE = new Set(['BAD_JOURNAL', 'JOURNAL_UNAUTHENTICATED', 'STORE_DAMAGED', 'STORE_VERSION']);

export interface ReleaseMasking {
  store: RunStore;
  /** The lease's name and its record now (held, or expired). */
  name: string;
  record: LeaseRecord;
  /** --pipeline FILE and its --var values. */
  pipeline?: string | undefined;
  vars?: readonly string[] | undefined;
  io: Parameters<typeof loadPipelineFile>[1] & { cwd: string };
  warn(message: string): void;
  /** The command's masker (cli/ci-masker.ts): each secret it learns is registered with the CI's masking. */
  masker: Masker;
}

/** Teaches the masker of a release's reason the secrets of the holder's pipeline (or --pipeline FILE). */
export async function teachReleaseSecrets(request: ReleaseMasking): Promise<void> {
  const { io, masker } = request;
  // Its secrets this shell holds: one it does not leaves the reason as given, said (reason-secrets.ts).
  const teach = async (file: string) => {
    const { pipeline } = await loadPipelineFile(resolve(io.cwd, file), io, {
      vars: parseVars(request.vars),
      // Every server reached: their logins (a Basic pair) mask the reason and are registered, as a run's are.
      checkEnv: false,
    });
    teachSecrets(pipeline, io.env, masker);
    const unset = unsetSecretsWarning(pipeline, io.env, 'release');
    if (unset) request.warn(unset);
  };
  if (request.pipeline !== undefined) {
    await teach(request.pipeline).catch((error: Error) => {
      throw new UsageError(
        'BAD_ARGUMENTS',
        `lease release --pipeline ${request.pipeline}: ${error.message}: nothing was released (its secrets mask the reason)`,
      );
    });
    return;
  }
  const runId = request.record.holder.runId;
  try {
    await teach(await holderPipelineFile(request.store, request.name, runId, io.env));
  } catch (error) {
    // The store failed: nothing is released (the reason is never kept unmasked on a store's fault).
    if (error instanceof StoreError && error.code === 'STORE_FAILED')
      throw new StoreError(
        'STORE_FAILED',
        `lease release: the pipeline of the lease's holder (run ${runId}) could not be read to mask its secrets in the reason: ${error.message}; nothing was released`,
        {
          hint: 'run it again once the store answers, or give --pipeline FILE (the pipeline the holder ran)',
          cause: error,
        },
      );
    const said = passedOver(error, error instanceof EnginectlError && UNREADABLE.has(error.code));
    request.warn(
      `the reason is recorded as given: the pipeline of the lease's holder (run ${runId}) could not be read to mask its secrets in it (${said}); give --pipeline FILE`,
    );
  }
}

/**
 * lease status: teaches `masker` the secrets this environment holds of the pipeline the holder of
 * a released lease ran, when the release kept a reason. A pipeline that cannot be read here
 * (another checkout, a journal this enginectl cannot read) teaches nothing: the words are shown as
 * kept, as the other readers show them; a store that fails as it is looked for fails the command.
 */
export async function teachStatusSecrets(
  store: RunStore,
  name: string,
  record: LeaseRecord,
  io: ReleaseMasking['io'],
  masker: Masker,
): Promise<void> {
  if (record.kind !== 'release' || !record.reason) return;
  const file = await holderPipelineFile(store, name, record.holder.runId, io.env).catch((error: unknown) => {
    if (error instanceof StoreError && error.code === 'STORE_FAILED') throw error;
    return undefined;
  });
  if (file === undefined) return;
  // Every server reached, as lease release reads it: their logins mask the reason too.
  await loadPipelineFile(resolve(io.cwd, file), io, { checkEnv: false }).then(
    ({ pipeline }) => teachSecrets(pipeline, io.env, masker),
    () => undefined,
  );
}

/** The pipeline file the holder of lease `name` ran: its run's journal's, or its sharded run's manifest's. */
async function holderPipelineFile(
  store: RunStore,
  name: string,
  runId: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const worker = /^(.+)\.shard-\d+$/.exec(name);
  // Not there (no such sharded run: a lease named like a worker's that is not one): the holder's journal.
  const manifest = worker
    ? await readShardRecord(store, shardKeys(worker[1]!).manifest, Manifest, 'a manifest', MANIFEST_VERSIONS)
    : undefined;
  if (manifest) return manifest.file;
  const read = await readStoredJournal(store, runId);
  const ways = storedWays(storedJournalAt(store, runId, () => read.segments));
  return readJournal(read.text, `${store.url} run ${runId}`, journalKey(env), ways).runs.at(-1)!.file;
}
