// The preflight: a live plan of a pipeline (GET requests only) as a saved plan, and the check a run
// with --plan makes before anything runs: the saved plan against one made now, its servers first,
// before any request.
import { UsageError } from '../errors.ts';
import { ERROR_CODES } from '../error-codes.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Selection } from '../pipeline/selection.ts';
import { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import type { RunnerDeps } from '../runner/run-context.ts';
import { makePlan, type LiveOptions, type PlanOutput } from './plan.ts';
import { pipelineSha256, type Source } from './pipeline-input.ts';
import { valuesHashPlain } from './plain-hash.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import { badPlan, savedPlan, type CurrentPlan, type SavedPlan } from './saved-plan.ts';
import { identityChanges, ofAnotherPipeline, staleness } from './plan-staleness.ts';
import { baseServerUrl } from '../api/base-url.ts';
import { newSalt } from '../journal/hashing.ts';
import { journalKey } from '../journal/seal.ts';
import { checkPlanKey, planKeyCheck, planServer, type PlanServer } from './plan-servers.ts';
import type { FingerprintKey } from '../journal/fingerprint.ts';
import { hidden, pins, type Pinnable } from './plan-pins.ts';
import type { PlannedCall } from '../steps/types.ts';
import { formatDuration } from '../duration.ts';

export interface PreflightInput {
  pipeline: Pipeline;
  sources: readonly Source[];
  vars: Readonly<Record<string, unknown>>;
  selection: Selection;
  env: Env;
  /** Earlier write durations (--history): a window's need, as the run reads it. */
  history?: RunnerDeps['history'];
  /** The command's masker (cli/ci-masker.ts): each secret the plan learns registered with the CI's masking. */
  masker: Masker;
}

/** `salt`: with ENGINECTL_JOURNAL_KEY, the key of its servers' fingerprints; a new one for a plan to save, the saved plan's to compare with it. */
export async function preflight(
  input: PreflightInput,
  live: LiveOptions,
  now: number,
  salt = newSalt(),
): Promise<{ plan: PlanOutput; saved: CurrentPlan; legacy: () => OlderHashes; unpinned: boolean }> {
  return planned(input, { live, emulator: live.emulatorUrl !== undefined, salt }, now);
}

/** The plan, live (GET requests only) or dry (no request), as a saved plan. */
async function planned(
  input: PreflightInput,
  how: { live?: LiveOptions; emulator: boolean; salt: string },
  now: number,
): Promise<{ plan: PlanOutput; saved: CurrentPlan; legacy: () => OlderHashes; unpinned: boolean }> {
  const { masker } = input;
  const rawWrites = new Map<string, PlannedCall[]>();
  const plan = await makePlan(input.pipeline, input.env, {
    selection: input.selection,
    masker,
    live: how.live,
    history: input.history,
    rawWrites,
  });
  // The files hashed as the run hashes them: every secret the file holds masked, whatever the selection.
  const hashing = fileMasker(input.pipeline, input.env);
  const mask = (t: string) => hashing.mask(t);
  // The journal's key, read only when a server's URL holds a secret (a plan of other servers needs none).
  const key = (): FingerprintKey | undefined => {
    const journal = journalKey(input.env);
    return journal === undefined ? undefined : { key: journal, salt: how.salt };
  };
  const servers = calledServers(input, plan, masker, { emulator: how.emulator, key });
  const shown = new Map(plan.steps.map((s) => [s.key, s.calls]));
  const pinnable: Pinnable = {
    files: input.sources,
    maskFile: mask,
    writes: new Map([...rawWrites].map(([k, raw]) => [k, { raw, masked: shown.get(k) ?? [] }])),
  };
  const pinned = pins(pinnable, key);
  const identity = {
    name: plan.name,
    file: input.pipeline.file,
    sha256: pipelineSha256(input.sources, mask),
    files: input.sources.map((s) => ({ path: s.path, sha256: pipelineSha256([s], mask) })),
    // Masked as the files are (every secret the file holds), then as the plan's masker knows: one hash for every --only.
    vars: masker.maskValue(hashing.maskValue({ ...input.vars })),
    selection: input.selection,
    salt: how.salt,
    servers,
    ...planKeyCheck(servers, key, pinned !== undefined),
    ...(pinned === undefined ? {} : { pinned }),
  };
  // A plan saved before that masking hashed the files and the values with the secrets its selection
  // reached (what the plan's masker learnt before it learnt the whole file's too): compared too when
  // the new hashes differ (withOlderHashes), with a masker of their own that only hashes, as fileMasker.
  const legacy = (): OlderHashes => {
    const reached = new Masker();
    prepareRun(input.pipeline, input.env, reached, 'reached');
    const old = (t: string) => reached.mask(t);
    return {
      sha256: pipelineSha256(input.sources, old),
      files: input.sources.map((s) => ({ path: s.path, sha256: pipelineSha256([s], old) })),
      varsHash: valuesHashPlain(reached.maskValue({ ...input.vars })),
    };
  };
  // Without a key, what the masks hide in the writes cannot be pinned: plan --out says so.
  const unpinned = pinned === undefined && hidden(pinnable).writes;
  return { plan, saved: savedPlan(identity, plan.steps, now), legacy, unpinned };
}

type OlderHashes = { sha256: string; files: { path: string; sha256: string }[]; varsHash: string };

/**
 * `current` with the files' hashes, and the values' hash, the saved plan holds when it was saved by
 * a build that hashed them with the secrets its selection reached (app/file-hashes.ts
 * comparedIdentity, for journals): no field tells the two apart, so unchanged files or values are
 * not said changed. The new hashes otherwise, each on its own.
 */
function withOlderHashes(saved: SavedPlan, current: CurrentPlan, legacy: () => OlderHashes): CurrentPlan {
  if (saved.pipeline.sha256 === current.pipeline.sha256 && saved.varsHash === current.varsHash) return current;
  const { varsHash, ...files } = legacy();
  const pipeline =
    saved.pipeline.sha256 !== current.pipeline.sha256 && files.sha256 === saved.pipeline.sha256
      ? { ...current.pipeline, ...files }
      : current.pipeline;
  return { ...current, pipeline, varsHash: saved.varsHash === varsHash ? varsHash : current.varsHash };
}

/**
 * The server each planned instance calls, by its name in the pipeline: its URL without the
 * credentials it may hold, or the embedded emulator's (--emulator), masked, and fingerprinted by
 * `key` where a secret is in it (a run against another server is refused).
 */
function calledServers(
  input: PreflightInput,
  plan: PlanOutput,
  masker: Masker,
  how: { emulator: boolean; key: () => FingerprintKey | undefined },
): Record<string, PlanServer> {
  const { servers } = prepareRun(input.pipeline, input.env, masker);
  const out: Record<string, PlanServer> = {};
  for (const name of new Set(plan.steps.flatMap((s) => (s.server === undefined ? [] : [s.server])))) {
    const server = servers.get(name);
    if (!server) continue;
    const url = how.emulator
      ? 'the embedded emulator (--emulator)'
      : baseServerUrl({ url: server.url }, `server "${name}"`).url;
    out[name] = planServer(url, masker.mask(url), how.key);
  }
  return out;
}

/**
 * Before anything is read or opened (the journal): refuses the run (PLAN_STALE, exit 2) when what is
 * known without a request moved (the files, vars, selection, servers), naming each. A server it
 * would call that is not the one the plan read under that name: a read of it would carry this
 * run's credentials to a server the plan was not made against. The saved plan of another pipeline is refused first (BAD_PLAN),
 * then a run without the key of the plan's fingerprints (PLAN_KEY), which could prove nothing.
 * `emulator`: the run's servers are the embedded emulator.
 */
export async function checkPlanServers(
  saved: SavedPlan,
  path: string,
  input: PreflightInput,
  emulator: boolean,
  now: number,
): Promise<void> {
  const made = await planned(input, { emulator, salt: saved.salt ?? newSalt() }, now);
  const dry = withOlderHashes(saved, made.saved, made.legacy);
  refuseAnotherPipeline(saved, path, dry);
  checkPlanKey(saved, path, input.env);
  // What is known without a request (the files, vars, selection and servers): refused now, before
  // a journal is opened or a request made; what the servers hold is read again by checkPlan.
  const changes = identityChanges(saved, dry);
  if (changes.length > 0) throw stale(saved, path, changes);
}

/** Refuses the run (PLAN_STALE, exit 2) when the state moved since `saved` was made, naming each difference; a plan of another pipeline (BAD_PLAN) in one line. */
export async function checkPlan(
  saved: SavedPlan,
  path: string,
  input: PreflightInput,
  live: LiveOptions,
  now: number,
): Promise<void> {
  const made = await preflight(input, live, now, saved.salt);
  const fresh = withOlderHashes(saved, made.saved, made.legacy);
  refuseAnotherPipeline(saved, path, fresh);
  const moved = staleness(saved, fresh);
  if (saved.pinned !== undefined && saved.pinned !== fresh.pinned)
    moved.push(
      "what the secrets mask moved since the plan: a file's text where a secret's value stands, or a value a write sends (a secret's value now another); masked, the texts cannot show which",
    );
  if (moved.length > 0) throw stale(saved, path, moved);
}

function refuseAnotherPipeline(saved: SavedPlan, path: string, fresh: CurrentPlan): void {
  if (!ofAnotherPipeline(saved, fresh)) return;
  const { name, file } = saved.pipeline;
  throw badPlan(
    path,
    `the saved plan of another pipeline ("${name}", ${file}), not of "${fresh.pipeline.name}" (${fresh.pipeline.file})`,
  );
}

/** The age of a saved plan run --plan runs without --plan-max-age: 7 days, a weekly change window. */
export const DEFAULT_PLAN_MAX_AGE = '168h';
/** How far after the run's clock a plan may be dated (two machines' clocks); beyond, one of them is wrong. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Before anything is read: refuses a plan made longer than `maxAge` before `now` (PLAN_STALE, exit
 * 2), as one whose state moved is: what it read, and what was reviewed, is that old. A plan dated
 * after `now` by more than a clock's skew is refused (BAD_PLAN): a clock is wrong, its age unknown.
 */
export function checkPlanAge(saved: SavedPlan, path: string, now: number, maxAge: PlanMaxAge): void {
  const made = Date.parse(saved.createdAt);
  if (made - now > CLOCK_SKEW_MS)
    throw badPlan(
      path,
      `it was made at ${saved.createdAt}, ${formatDuration(made - now)} later than this machine's clock says it is now (${new Date(now).toISOString()}): one of the two clocks is wrong, and the plan's age cannot be told`,
    );
  if (now - made <= maxAge.ms) return;
  const limit = maxAge.given ?? `${DEFAULT_PLAN_MAX_AGE} (the default)`;
  throw stale(
    saved,
    path,
    [`it was made ${formatDuration(now - made)} ago, over --plan-max-age ${limit}`],
    'make the plan again (enginectl plan FILE --live --out F) and run with it; or, having reviewed that it still holds, run it with a longer --plan-max-age',
  );
}

/** --plan-max-age: its milliseconds, and the text given (none for the default). */
export interface PlanMaxAge {
  ms: number;
  given?: string | undefined;
}

function stale(
  saved: SavedPlan,
  path: string,
  moved: readonly string[],
  hint: string = ERROR_CODES.PLAN_STALE.action,
): UsageError {
  return new UsageError(
    'PLAN_STALE',
    `--plan ${path}: the saved plan of ${saved.createdAt} is stale:\n${moved.map((m) => `  - ${m}`).join('\n')}`,
    { hint },
  );
}
