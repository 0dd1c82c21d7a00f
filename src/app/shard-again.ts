// `enginectl shard` run again for a fleet. The same plan job of the same CI run (re-run: GitHub's
// "Re-run all jobs", a GitLab pipeline retry; or the same --run-key) gets the same sharded run: a
// create-only key in the store (ci/shard/DIGEST, a digest of the key, the pipeline file and its
// --var values) names the run planned under it, whose fan-out is printed again, nothing new
// written, when the pipeline and inventory hashes, the shards and the assignment are the same
// (else refused, as its workers would be). Other --var values (a matrix of plan jobs) or another
// file are another plan job: a key of their own. Planned without a key match, a run of the same
// fleet (pipeline and inventory hashes) that has not ended is a refusal (--new-run plans a second
// rollout on purpose, still under its key), and the last one that ended is said in a line: the new
// rollout sends its writes again.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { journalKey } from '../journal/seal.ts';
import { newRunId } from '../journal/replica.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Report } from '../report/model.ts';
import { NoShardedRun, readManifest, readShardRecord, writeManifest, type Manifest } from '../shard/manifest.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import { neutralise } from '../text/neutralise.ts';
import { takeSlot } from './fleet-slot.ts';
import { includeRoot } from './include-file.ts';
import { operatorOf } from './journal-setup.ts';
import { makeManifest, type Fleet } from './shard-plan.ts';
import { storePlanned } from './shard-instances.ts';
import { shardedReport } from './shard-report.ts';
import { shardedRuns } from './sharded-runs.ts';

const KeyRecord = z.object({ run: z.string(), key: z.string(), file: z.string(), at: z.number() });

/**
 * The pipeline file as a re-run finds it again: inside a git work tree, its path from the tree's
 * root (the same on every runner's checkout, whatever the working directory or however it is
 * typed); outside one, its real path.
 */
export function fileIdentity(cwd: string, file: string): string {
  const real = realpathSync(resolve(cwd, file));
  const root = includeRoot(dirname(real));
  return existsSync(join(root, '.git')) ? `repo:${relative(root, real).split(sep).join('/')}` : real;
}

/** Where the run planned under `key` for the file (fileIdentity) and its --var values (`vars`: their masked hash) is named. */
export const runKeyPath = (key: string, file: string, vars: string) =>
  `ci/shard/${createHash('sha256')
    .update(JSON.stringify([key, file, vars]))
    .digest('hex')
    .slice(0, 40)}`;

/** The run planned under the key, when there is one. */
export async function keyedRun(store: RunStore, path: string): Promise<string | undefined> {
  return (await readShardRecord(store, path, KeyRecord, "a sharded run's key"))?.run;
}

/** Names `run` under the key, create-only: the run named there first (this one, or another planner's). */
export async function nameRun(
  store: RunStore,
  path: string,
  record: { run: string; key: string; file: string; at: number },
): Promise<string> {
  if (await store.create(path, Buffer.from(JSON.stringify(record)))) return record.run;
  return (await keyedRun(store, path)) ?? record.run;
}

/** The manifest of the run planned under the key, refused when it is not this fleet's plan. */
export function checkKeyed(manifest: Manifest, fleet: Fleet, shards: number, assign: string, key: string): void {
  const differs =
    manifest.sha256 !== fleet.sha256
      ? 'its files or --var values differ'
      : manifest.inventory !== fleet.inventory
        ? `its ${manifest.over}s differ`
        : manifest.shards !== shards
          ? `it was planned over ${manifest.shards} shard(s), not ${shards}`
          : manifest.assign !== assign
            ? `it assigns ${manifest.assign}, not ${assign}`
            : undefined;
  if (differs)
    throw new UsageError(
      'SHARD_REFUSED',
      `run ${manifest.run} was planned under this key from another pipeline: ${differs} (the key: ${key})`,
      {
        hint: `give shard the files, --var values, --shards and --assign of its first attempt (its workers would be refused), or plan another rollout with --new-run (or another --run-key)`,
      },
    );
}

/** A run of the fleet as it stands: ended (and how, when), or not (and where). */
interface Standing {
  run: string;
  ended: boolean;
  state: string;
  at: number;
  /** How to go on, when not as with a run planned. */
  hint?: string;
}

function standingOf(run: string, report: Report): Standing {
  const at = Date.parse(report.startedAt) + report.durationMs;
  const underWay = report.merged?.underWay;
  const rollout = report.rollout;
  const notEnded = (state: string) => ({ run, ended: false, state, at });
  if (underWay) return notEnded(`under way at wave ${underWay.wave}`);
  if (report.parked) return notEnded(`parked at wave ${report.parked.wave}`);
  if (report.merged?.reports.length === 0) return notEnded('planned, no worker started a site yet');
  if (rollout?.halted) return { run, ended: true, state: `failure (halted at wave ${rollout.halted.wave})`, at };
  if ((report.merged?.noReport.length ?? 0) > 0 || report.outcome === 'cancelled')
    return notEnded('stopped: a site of it has not ended');
  return { run, ended: true, state: report.outcome, at };
}

/** Where a run of the store stands, each read once by a plan: a run named whose manifest is not written yet has not ended. */
export function standings(store: RunStore, key: string | undefined, now: () => number) {
  const read = new Map<string, Promise<Standing>>();
  const standing = async (run: string): Promise<Standing> => {
    try {
      return standingOf(run, (await shardedReport(store, run, key, now())).report);
    } catch (e) {
      if (e instanceof NoShardedRun)
        return {
          run,
          ended: false,
          state: 'named by a plan job that has not written its manifest yet',
          at: 0,
          hint: `wait for that plan job to end (one that stopped plans run ${run} when it is run again, under its key), or plan a second rollout on purpose with --new-run`,
        };
      throw e;
    }
  };
  return (run: string) => read.get(run) ?? read.set(run, standing(run)).get(run)!;
}

/** The refusal of a plan while `open`, a run of its fleet, has not ended. */
function notEnded(store: RunStore, open: Standing): UsageError {
  return new UsageError(
    'SHARD_REFUSED',
    `run ${open.run} of this fleet (the same pipeline and inventory) in ${store.url} has not ended (${open.state}): another run would roll the fleet out beside it, with a failure budget of its own`,
    {
      hint:
        open.hint ??
        `go on with it: run its workers again (the same commands, --run ${open.run}; runs --store URL says where it stands); or end it: enginectl decide --store ${store.url} --run ${open.run} --abort --reason TEXT; or plan a second rollout on purpose with --new-run`,
    },
  );
}

/**
 * The runs of the store of this fleet (the same pipeline and inventory hashes) but `except` (the
 * key's own): refused when one has not ended; the line that says the last that ended, when one did.
 */
export async function earlierRuns(
  store: RunStore,
  fleet: Fleet,
  standing: (run: string) => Promise<Standing>,
  except?: string,
): Promise<string | undefined> {
  const found: Standing[] = [];
  for (const id of [...(await shardedRuns(store)).ids].sort().reverse()) {
    if (id === except) continue;
    const manifest = await readManifest(store, id);
    if (manifest.sha256 !== fleet.sha256 || manifest.inventory !== fleet.inventory) continue;
    found.push(await standing(id));
  }
  const open = found.find((s) => !s.ended);
  if (open) throw notEnded(store, open);
  const last = found[0];
  return last
    ? `the last run of this fleet (${last.run}) ended ${last.state} at ${new Date(last.at).toISOString()}: this plans a new rollout that sends its writes again`
    : undefined;
}

export interface PlanRequest {
  shards: number;
  assign: 'static' | 'queue';
  /** The pipeline file as given (its identity is read from it). */
  file: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  /** The CI run's key (or --run-key); none: planned under no key. */
  key: string | undefined;
  /** --new-run: plan a new run even while one of the fleet has not ended. */
  newRun: boolean;
  stderr(text: string): void;
}

/**
 * The run to print: the one planned under the key (the CI run, or --run-key) when there is one,
 * else a new one, refused while a run of the fleet has not ended (unless --new-run), the last that
 * ended said. `again`: how the key's run is told, printed again.
 */
export async function planOrFind(
  store: RunStore,
  pipeline: Pipeline,
  fleet: Fleet,
  o: PlanRequest,
): Promise<{ manifest: Manifest; again?: string }> {
  const { key } = o;
  const path = key === undefined ? undefined : runKeyPath(key, fileIdentity(o.cwd, o.file), fleet.vars);
  const keyed = path && (await keyedRun(store, path));
  const told = ` (planned by an earlier attempt, under ${key}: nothing new planned)`;
  // The run the key names, its manifest written: printed again. Not written yet (its planner
  // stopped between the key and the manifest, or writes it now): planned under that id, as the
  // planner would have.
  const found = async (run: string) => {
    const manifest = await readManifest(store, run).catch((e: unknown) => {
      if (e instanceof NoShardedRun) return undefined;
      throw e;
    });
    if (manifest && key !== undefined) checkKeyed(manifest, fleet, o.shards, o.assign, key);
    return manifest;
  };
  const existing = keyed ? await found(keyed) : undefined;
  if (existing) return { manifest: existing, again: told };
  const standing = standings(store, journalKey(o.env), o.now);
  if (!o.newRun) {
    const last = await earlierRuns(store, fleet, standing, keyed || undefined);
    if (last) o.stderr(`${neutralise(`enginectl: ${last}`)}\n`);
  }
  let run = keyed || newRunId(o.now());
  // Named under the key first (create-only): two plan jobs of one CI run plan one run.
  if (path && !keyed) {
    run = await nameRun(store, path, { run, key: key!, file: o.file, at: o.now() });
    const other = await found(run);
    if (other) return { manifest: other, again: told };
  }
  // The fleet's next slot, create-only: a plan of another CI run at once stands aside (unless --new-run).
  if (!o.newRun) {
    const holder = await takeSlot(store, fleet, run, o.now(), async (r) => !(await standing(r)).ended);
    if (holder) throw notEnded(store, await standing(holder));
  }
  const manifest = makeManifest(pipeline, fleet, {
    run,
    shards: o.shards,
    assign: o.assign,
    at: o.now(),
    by: operatorOf(o.env),
  });
  // The instances before the manifest: a worker starts once the manifest is there.
  await storePlanned(store, run, pipeline, o.env);
  if (await writeManifest(store, manifest)) return { manifest };
  // Another planner of the key wrote the run's manifest first (two plan jobs at once): its plan is
  // the run's, printed when it is this one's, else refused (this fan-out's workers would be).
  const theirs = key === undefined ? undefined : await found(run);
  if (!theirs)
    throw new StoreError(
      'STORE_FAILED',
      `${store.url}: the manifest of run ${run} was there to a create-only write, and ${key === undefined ? 'the run is new (planned under no key)' : 'not to a read'}`,
      { hint: 'a store that says so is not create-only as enginectl needs: check its consistency, then plan again' },
    );
  return { manifest: theirs, again: ` (planned at the same time by another job, under ${key}: nothing new planned)` };
}
