// Whether the pipeline file verify reads is the one its journal's run hashed. A run hashes it with
// every secret the file holds masked (runner/file-secrets.ts), compared first. A run before that
// hashed the file's text with every secret it knew masked: those its selection (--only, --skip,
// kept in its run record) reached, tried next as that selection reaches them however many sites
// the file has (legacy-masker.ts); or more (a shard worker's masker has learnt the sites it ran
// before). What it knew: the secrets the file names (secrets.X, from the run's environment), the
// credentials it writes literally (a server's password, a target's token, a step's secret input),
// the vars that read a secret. verify is given only what its reads need. So it learns everything
// the file yields, literally or from the secrets it is given, and compares the hash with the text
// masked by each choice of those secrets the text holds (the run masked some of them): one that
// matches is the run's file. None matching is a change only when verify was given every secret the
// file names; else a missing one's value, written in the file, may be what the run masked, and
// verify says it cannot tell, naming the secrets (never a value).
import { randomBytes } from 'node:crypto';
import type { JournalState } from '../journal/read.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import { filesHashes } from './file-hashes.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import { legacyMasker } from './legacy-masker.ts';
import { selectionOf } from '../journal/records.ts';
import type { Source } from './pipeline-input.ts';

export type FileVerdict =
  | { same: true }
  | { same: false; changed: true }
  /** `missing`: the secrets the file names that verify was not given; `unlearnt`: others it could not learn (or try every choice of). */
  | { same: false; changed: false; missing: string[]; unlearnt: boolean };

/** A masker that keeps what it was taught: each secret as given to `add`. */
class Taught extends Masker {
  readonly learnt: string[] = [];

  override add(secret: string | undefined | null, name?: string): void {
    if (typeof secret === 'string') this.learnt.push(secret);
    super.add(secret, name);
  }
}

/** The most secrets held in the text whose every choice is tried (2^N hashes of the file); past it, all of them or none. */
const MOST_TRIED = 8;

function masking(secrets: readonly string[]): Masker {
  const masker = new Masker();
  for (const s of secrets) masker.add(s);
  return masker;
}

/** `pipeline` (loaded for verify's reads) against the hash of the journal's last run, with the environment verify is given. */
export function compareWithRun(
  pipeline: Pipeline,
  sources: readonly Source[],
  state: JournalState,
  env: Env,
  vars: Readonly<Record<string, unknown>> = {},
): FileVerdict {
  const first = state.runs[0]!;
  const recorded = state.runs.at(-1)!.files[0]?.hash;
  const hashOf = (masker: Masker) => filesHashes(sources.slice(0, 1), first.salt, masker, first.v)[0]!.hash;
  // A run since every hash masks every secret the file holds (runner/file-secrets.ts) hashed it so, whatever it selected.
  if (hashOf(fileMasker(pipeline, env)) === recorded) return { same: true };
  // A run before it hashed it with what its selection reached (the one its record keeps), however many sites.
  const reached = legacyMasker({ pipeline, sources, vars, env }, selectionOf(state.runs.at(-1)!));
  if (reached && hashOf(reached) === recorded) return { same: true };
  // The secrets verify is not given stand for themselves: no text holds them, and the rest resolves.
  const missing = pipeline.secrets.filter((name) => env[name] === undefined);
  const stand = randomBytes(16).toString('hex');
  const given = { ...env, ...Object.fromEntries(missing.map((name) => [name, `unset-${name}-${stand}`])) };
  const taught = new Taught();
  let unlearnt = false;
  try {
    // Every server, target and var: the run's own selection, or the instances it ran, are among them.
    prepareRun({ ...pipeline, reach: undefined }, given, taught, 'reached');
  } catch {
    // What it could not resolve here (an env.X not set), it could not learn.
    unlearnt = true;
  }
  const text = sources[0]?.text ?? '';
  const held = [...new Set(taught.learnt)].filter((s) => masking([s]).mask(text) !== text);
  // Every choice, all of them first (the run masked what verify learnt, most often); past the most, all or none.
  const every = held.length <= MOST_TRIED;
  const choices = every
    ? Array.from({ length: 2 ** held.length }, (_, n) => held.filter((_s, i) => ((2 ** held.length - 1 - n) >> i) & 1))
    : [held, []];
  if (choices.some((choice) => hashOf(masking(choice)) === recorded)) return { same: true };
  if (missing.length === 0 && !unlearnt && every) return { same: false, changed: true };
  return { same: false, changed: false, missing, unlearnt: unlearnt || !every };
}
