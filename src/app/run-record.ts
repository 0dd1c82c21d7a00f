// A run's first record in its journal: what identifies the run (its files and --var values hashed,
// its selection), the servers it calls (masked; with ENGINECTL_JOURNAL_KEY, the key's fingerprint of
// each place that holds a secret, journal/sent-server.ts), and every instance it plans.
import { valuesHash } from '../journal/hashing.ts';
import { JOURNAL_VERSION, LEASE_JOURNAL_VERSION, type JournalRecord } from '../journal/records.ts';
import { journalKey } from '../journal/seal.ts';
import { placeHidden, secretPlaces } from '../journal/sent-server.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { canonicalSelection, matrixValues, type Selection } from '../pipeline/selection.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import type { Masker } from '../runner/masker.ts';
import type { RunStart } from '../runner/run-context.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import type { JournalSpec } from './journal-spec.ts';
import { pipelineSha256, type Source } from './pipeline-input.ts';

/** What of a run's request its record says (app/run.ts RunRequest). */
export interface RecordedRun {
  pipeline: Pipeline;
  env: Env;
  selection: Selection;
  emulatorUrl?: string | undefined;
  resume?: unknown;
  sources?: readonly Source[] | undefined;
  sha256?: string | undefined;
  vars?: Readonly<Record<string, unknown>> | undefined;
}

export function runRecord(
  request: RecordedRun,
  spec: JournalSpec,
  start: RunStart,
  masker: Masker,
  at: number,
  leased: boolean,
): JournalRecord {
  return {
    t: 'run',
    // A run a lease holds (a fleet lease, a stored run's own) says 4: an enginectl reading 2 and 3 refuses it (records.ts).
    v: leased ? LEASE_JOURNAL_VERSION : (spec.version ?? JOURNAL_VERSION),
    at,
    file: request.pipeline.file,
    name: start.name,
    salt: spec.salt,
    hash: valuesHash(spec.salt, spec.files),
    files: spec.files,
    vars: masker.maskValue({ ...spec.vars }),
    varsHash: spec.varsHash,
    ...canonicalSelection(request.selection),
    servers: start.servers,
    ...placesOf(request, start.servers, masker),
    ...(request.emulatorUrl === undefined ? {} : { emulator: true as const }),
    resume: request.resume !== undefined,
    instances: start.planned(),
    ...(request.sources ? { sha256: request.sha256 ?? maskedSha256(request, request.sources) } : {}),
    matrix: matrixValues(request.pipeline),
  };
}

/**
 * With the key, the fingerprints of the servers whose place holds a secret (`servers`: masked, as
 * recorded): their URLs as the runner resolved them with the run's masker (prepareRun keeps that).
 */
function placesOf(request: RecordedRun, servers: Readonly<Record<string, string>>, masker: Masker) {
  const key = journalKey(request.env);
  if (key === undefined || !Object.values(servers).some(placeHidden)) return {};
  const resolved = [...prepareRun(request.pipeline, request.env, masker).servers.values()];
  const recorded = resolved.flatMap(({ name, url }) =>
    servers[name] === undefined ? [] : [{ name, url, masked: servers[name] }],
  );
  return secretPlaces(recorded, key);
}

/** The files' (and --var values') hash with every secret they write literally masked first: no offline check of a literal credential. */
export const maskedSha256 = (request: RecordedRun, sources: readonly Source[]): string => {
  // Every secret the file holds masked, whatever the selection (runner/file-secrets.ts): the same hash for every --only.
  const masker = fileMasker(request.pipeline, request.env);
  return pipelineSha256(sources, (text) => masker.mask(text), request.vars);
};
