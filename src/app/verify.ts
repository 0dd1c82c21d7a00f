// Reading back the targets of a journal's in-doubt calls, with the clients of the pipeline that
// wrote it (its servers, resolved from the environment as a run resolves them).
import type { EngineClient } from '../api/index.ts';
import { verifyInDoubt, type InDoubtInstance, type Verified } from '../journal/verify.ts';
import { ServerMoved, serverHere, serverMoved } from '../journal/sent-server.ts';
import { journalKey } from '../journal/seal.ts';
import type { JournalState } from '../journal/read.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import { EnginectlError, interruptedRead, UsageError } from '../errors.ts';
import { clientFactory } from './clients.ts';
import { instanceSet } from '../runner/instance-set.ts';
import { EVERY_INSTANCE } from '../pipeline/selection.ts';

export interface VerifySetup {
  pipeline: Pipeline;
  env: Env;
  masker: Masker;
  signal: AbortSignal;
  now: () => number;
  onRetry?: ((message: string) => void) | undefined;
}

export async function verifyJournal(state: JournalState, setup: VerifySetup): Promise<Verified[]> {
  const { servers } = prepareRun(setup.pipeline, setup.env, setup.masker);
  // Each answer's Date read against the clock verify counts on: the server's clock is the one it shares with the run's.
  const make = clientFactory({ env: setup.env, masker: setup.masker, onRetry: setup.onRetry, now: setup.now });
  const clients = new Map<string, EngineClient>();
  const clientFor = ({ key, server: name }: InDoubtInstance) => {
    const server = name === undefined ? undefined : servers.get(name);
    if (!server)
      throw new UsageError(
        'UNKNOWN_SERVER',
        `the journal names server "${name ?? ''}", which the pipeline does not define`,
      );
    // Read only where the call went: at the URL the run that sent it recorded (masked as it masked it).
    const moved = serverMoved(
      state,
      key,
      serverHere(server, (t) => setup.masker.mask(t)),
      journalKey(setup.env),
    );
    if (moved) throw new ServerMoved(moved.words);
    let client = clients.get(server.name);
    if (!client) clients.set(server.name, (client = make(server)));
    return client;
  };
  // The pipeline's instances, expanded once when a doubt first asks for its step's bound.
  let keys: ReturnType<typeof instanceSet>['keys'] | undefined;
  try {
    return await verifyInDoubt(
      state,
      clientFor,
      setup.now,
      setup.signal,
      (text) => setup.masker.mask(text),
      // The step as the pipeline reads now, by the instance's identity: a step inserted, removed or moved
      // since the run would otherwise lend its own bound (its place holds another step now).
      (instance) => {
        const at = (keys ??= instanceSet(setup.pipeline, EVERY_INSTANCE).keys).get(instance.key)?.step;
        return at === undefined ? undefined : setup.pipeline.steps[at]?.longestMs;
      },
    );
  } catch (error) {
    // A read a signal cut (API_ABORTED) is the interruption it is: nothing was written, nothing decided.
    const cut = error instanceof EnginectlError && error.code !== 'API_ABORTED' ? undefined : error;
    throw (
      (cut && interruptedRead(setup.signal, 'reading back the calls in doubt', 'only reads were sent: run it again')) ||
      error
    );
  } finally {
    await Promise.all([...clients.values()].map((c) => c.close()));
  }
}
