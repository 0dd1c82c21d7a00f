// The journal of a run, set up before its first step, for the CLI and every action alike: opened
// and locked (one run at a time), its torn tail cut, and for a resume read back and turned into
// what runs again. Its identity is keyed hashes of every file the pipeline reads and of the vars.
import type { Selection } from '../pipeline/selection.ts';
import { hostname } from 'node:os';
import { actorOf } from '../ci/facts.ts';
import { UsageError } from '../errors.ts';
import { JournalFile, type JournalFs } from '../journal/file.ts';
import { journalKey } from '../journal/seal.ts';
import { newSalt } from '../journal/hashing.ts';
import { selectionOf, type JournalVersion } from '../journal/records.ts';
import { journalState, killedAtFirstRecord, lineNumbers, parseRecords, type JournalState } from '../journal/read.ts';
import { refuseForgottenDoubts, refuseOpenDoubts } from './open-doubts.ts';
import { checkParked, parksOf, refuseResumeParked, inEffect, pendingDecisions, timeouts } from './parked.ts';
import { resumePlan, type InDoubtMode } from '../journal/resume.ts';
import { verifiedDecisions, type Verified } from '../journal/verify.ts';
import { Masker } from '../runner/masker.ts';
import { verifyJournal } from './verify.ts';
import type { Clock } from './clock.ts';
import { prepareRun } from '../runner/scope.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import { comparedIdentity, filesHashes, varsHashOf } from './file-hashes.ts';
import { legacyMasker } from './legacy-masker.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { ResumePlan } from '../runner/resume.ts';
import type { Source } from './pipeline-input.ts';
import type { JournalSpec } from './journal-spec.ts';
import { CLI_WAYS, storedWays, type StoredJournal, type WaysOn } from '../ways-on.ts';

export interface JournalRequest {
  path: string;
  /** Resume from it (it must hold a run), or only append a new run to it. */
  resume: boolean;
  force: boolean;
  inDoubt: InDoubtMode | undefined;
  /** --continue-rollout: the operator's word to go on past the wave the journal's rollout halted at. */
  continueRollout?: boolean | undefined;
  /** run --continue: the journal's last run must have parked; the run goes on from where it parked. */
  continueParked?: boolean | undefined;
  /** A sharded site's run: one its window parked goes on as run --continue goes on with it (any other is resumed). */
  continueWindow?: boolean | undefined;
  /** A stored run's journal (its local copy at `path`): `run ID` in a refusal, `URL run ID` in the reports, its records refused in the store's words. */
  storedAt?: StoredJournal | undefined;
  /**
   * For --in-doubt verify: masks what is read, stops the reads on a signal; each answer's Date and
   * "since the call" read on `clock`, which goes on while verify reads (not `now`, fixed when the
   * resume began: a read minutes after it would read this machine's clock minutes behind the server's).
   */
  verify?: { masker: Masker; signal: AbortSignal; clock: Pick<Clock, 'now'> } | undefined;
  /** Masks every secret before it is hashed: no hash in the journal is a derivative of a secret. */
  masker?: Masker | undefined;
  pipeline: Pipeline;
  sources: readonly Source[];
  vars: Readonly<Record<string, unknown>>;
  selection: Selection;
  env: Readonly<Record<string, string | undefined>>;
  /** The command, for the lock: who holds the journal. */
  command: string;
  /** How the operator's surface names the ways on a refusal gives (the CLI's flags, the action's inputs). */
  ways?: WaysOn | undefined;
  /** Told at once what opening the journal did (a stale lock taken over, a torn tail cut): said even when the resume is then refused. */
  warn: (warning: string) => void;
  now: number;
  fs?: JournalFs | undefined;
}

export interface JournalSetup {
  spec: JournalSpec;
  resume: ResumePlan | undefined;
  /** Said before the run: a moved server, a decision that changes nothing (what opening did is told by `warn`). */
  warnings: string[];
  /** --in-doubt verify: what reading each in-doubt call's target found. */
  verified: Verified[];
  /** run --continue: where the run parked and the operator's decisions since. */
  parked?: NonNullable<JournalState['parked']> | undefined;
  /** run --continue parked again for a decision: the decisions with a timeout still to come, in words (decide lists them too). */
  timeouts?: string[] | undefined;
}

/** Who decides an in-doubt call: the actor, at this host. */
export function operatorOf(env: Readonly<Record<string, string | undefined>>): string {
  return `${actorOf(env)}@${hostname()}`;
}

/**
 * The masker taught the secrets the pipeline resolves (a literal password, a var that reads a
 * secret) before anything is hashed; a pipeline that cannot be prepared fails as the run starts,
 * before its first record, so its error is the run's to say.
 */
export function teachSecrets(pipeline: Pipeline, env: JournalRequest['env'], masker: Masker): void {
  try {
    prepareRun(pipeline, env, masker);
  } catch {
    // said by the run
  }
}

export async function setUpJournal(request: JournalRequest): Promise<JournalSetup> {
  // A stored run's (`URL run ID`, not its local copy, in a refusal): a record refused is the store's.
  const at = request.storedAt;
  const [named, label] = at ? [`${at.url} run ${at.runId}`, `run ${at.runId}`] : [request.path, request.path];
  const ways = at ? storedWays(at, request.ways) : (request.ways ?? CLI_WAYS);
  const opened = JournalFile.open(request.path, request.command, {
    name: named,
    mustExist: request.resume,
    fs: request.fs,
    key: journalKey(request.env),
    ways,
  });
  for (const w of opened.warnings) request.warn(w);
  try {
    const masker = request.masker ?? request.verify?.masker ?? new Masker();
    teachSecrets(request.pipeline, request.env, masker);
    // Hashed with every secret the file holds masked, whatever the selection (runner/file-secrets.ts).
    const hashing = fileMasker(request.pipeline, request.env);
    const hashes = (salt: string, version?: JournalVersion) => filesHashes(request.sources, salt, hashing, version);
    const varsHash = (salt: string) => varsHashOf(salt, request.vars, hashing, masker);
    // A resume of a run killed while writing its first record: nothing was sent under it, so it starts over.
    const startsOver = request.resume && killedAtFirstRecord(opened.framed);
    if (startsOver)
      request.warn(
        `journal ${named} held no whole record: the run that wrote it was killed while writing its first, before anything was sent; this run starts from the beginning`,
      );
    if (!request.resume || startsOver) {
      refuseOpenDoubts(opened.framed, named, ways);
      const salt = newSalt();
      return {
        spec: { file: opened.file, salt, files: hashes(salt), vars: request.vars, varsHash: varsHash(salt) },
        resume: undefined,
        warnings: [],
        verified: [],
      };
    }
    const records = parseRecords(opened.framed, named, ways);
    refuseForgottenDoubts(records, named, ways, lineNumbers(opened.framed));
    const read = journalState(records, named, ways, lineNumbers(opened.framed));
    const parks = parksOf(read, request.now);
    // The decisions in effect now: one with a timeout (decide --after) counts once its time came.
    const state = read.parked ? { ...read, parked: inEffect(read.parked, request.now) } : read;
    const continued =
      request.continueParked === true || (request.continueWindow === true && state.parked?.park.for === 'window');
    if (continued) {
      checkParked(state, label, ways);
      // A decision not yet made: parked again before anything is planned (an in-doubt call waits for it).
      if (pendingDecisions(state.parked).length > 0) {
        const { salt, v: version } = state.runs[0]!;
        return {
          spec: {
            file: opened.file,
            salt,
            version,
            files: hashes(salt, version),
            vars: request.vars,
            varsHash: varsHash(salt),
          },
          resume: undefined,
          warnings: [],
          verified: [],
          parked: state.parked,
          timeouts: timeouts(read.parked!, request.now),
        };
      }
    } else refuseResumeParked(state, label, ways);
    // A halted rollout goes on only on the operator's word, recorded as a decision.
    if (state.halted && !request.continueRollout) {
      throw new UsageError(
        'RESUME_HALTED',
        `${named}: the rollout halted at wave ${state.halted.wave} (${state.halted.reason}); resuming goes on with the waves after it`,
        {
          hint: `check the sites of that wave first; then resume with ${ways.continueRollout} (recorded in the journal as your decision). Nothing was sent`,
        },
      );
    }
    const going =
      state.halted && request.continueRollout
        ? { wave: state.halted.wave, by: operatorOf(request.env), at: request.now }
        : undefined;
    const { salt, v: version } = state.runs[0]!;
    const now = { files: hashes(salt, version), varsHash: varsHash(salt) };
    const last = state.runs.at(-1)!;
    // A journal written before the file masker: as its run hashed them, for this selection or the one it recorded.
    const compared = comparedIdentity(last, now, [() => masker, () => legacyMasker(request, selectionOf(last))], {
      ...request,
      salt,
      version,
    });
    const by = operatorOf(request.env);
    const mode = request.inDoubt;
    const verifying = mode === 'verify' || mode === 'verify-and-retry';
    const verified =
      verifying && request.verify
        ? await verifyJournal(state, {
            pipeline: request.pipeline,
            env: request.env,
            masker: request.verify.masker,
            signal: request.verify.signal,
            now: request.verify.clock.now,
          })
        : [];
    const inDoubt = verifying
      ? verifiedDecisions(verified, { retryNotApplied: mode === 'verify-and-retry', by, at: request.now, ways })
      : mode;
    const { plan, decisions, warnings } = resumePlan(request.pipeline, state, {
      ...compared,
      selection: request.selection,
      force: request.force,
      goingOn: Boolean(continued && state.parked),
      inDoubt,
      by,
      now: request.now,
      ways,
    });
    const extra =
      request.continueRollout && !state.halted
        ? [`${ways.continueRollout}: the journal's rollout did not halt; nothing to decide`]
        : [];
    return {
      spec: {
        file: opened.file,
        salt,
        version,
        ...now,
        vars: request.vars,
        decisions,
        previousServers: state.runs.at(-1)!.servers,
        resumedFrom: {
          journal: named,
          name: state.runs.at(-1)!.name,
          file: state.runs.at(-1)!.file,
          sameFile: compared.files[0]?.hash === last.files[0]?.hash,
        },
        ...(going ? { continueRollout: going } : {}),
        ...(state.continued ? { continuedBefore: state.continued } : {}),
        ...(state.decided.length ? { decidedBefore: state.decided } : {}),
      },
      resume: {
        ...plan,
        ...(continued && state.parked ? { parked: state.parked } : {}),
        decided: [...new Set(parks.flatMap((p) => p.decided))],
        parks,
      },
      warnings: [...warnings, ...extra],
      verified,
      parked: continued ? state.parked : undefined,
    };
  } catch (error) {
    opened.file.close();
    throw error;
  }
}
