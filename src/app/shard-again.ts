// `enginectl shard` run again for a fleet. The same plan job of the same CI run (re-run: GitHub's
// "Re-run all jobs", a GitLab pipeline retry; or the same --run-key) gets the same sharded run: a
// create-only key in the store (ci/shard/DIGEST, a digest of the key, the pipeline file and its
// --var values) names the run planned under it, whose fan-out is printed again, nothing new
// written, when the pipeline and inventory hashes, the shards and the assignment are the same
// (else refused, as its workers would be). Other --var values (a matrix of plan jobs) or another
// file are another plan job: a key of their own. Servers whose URL holds a secret (the same text
// masked in every GitHub environment) are compared by their fingerprints (shard-servers.ts): another
// environment's, or one that cannot be told under the CI run's key, is refused. Planned without a key match, a run of the same
// fleet (pipeline and inventory hashes) that has not ended is a refusal (fleet-runs.ts; --new-run
// plans a second rollout on purpose, still under its key), and a plan takes the fleet's next slot
// (fleet-slot.ts) before its manifest.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { journalKey } from '../journal/seal.ts';
import { newRunId } from '../journal/replica.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { NoShardedRun, readManifest, readShardRecord, writeManifest, type Manifest } from '../shard/manifest.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import { neutralise } from '../text/neutralise.ts';
import { workspaceOf } from '../ci/facts.ts';
import { takeSlot } from './fleet-slot.ts';
import { includeRoot } from './include-file.ts';
import { operatorOf } from './journal-setup.ts';
import { makeManifest, refuseOtherHashing, type Fleet } from './shard-plan.ts';
import { storePlanned } from './shard-instances.ts';
import { earlierRuns, notEnded, ourRun, standings, standsWords } from './fleet-runs.ts';
import { keptServers, keyedServersRefusal } from './shard-servers.ts';

const KeyRecord = z.object({ run: z.string(), key: z.string(), file: z.string(), at: z.number() });

/**
 * The pipeline file as a re-run finds it again: inside the CI's workspace (the checkout's root),
 * its path from there (the same on every runner, whatever the working directory or however it is
 * typed; two repositories checked out in one workspace are two paths); else inside a git work
 * tree, its path from the tree's root; else its real path.
 */
export function fileIdentity(cwd: string, file: string, env: Readonly<Record<string, string | undefined>>): string {
  const real = realpathSync(resolve(cwd, file));
  const workspace = workspaceOf(env, '');
  const from = (root: string) => relative(root, real).split(sep).join('/');
  if (workspace !== '' && existsSync(workspace)) {
    const root = realpathSync(workspace);
    if (real.startsWith(`${root}${sep}`)) return `workspace:${from(root)}`;
  }
  const root = includeRoot(dirname(real));
  return existsSync(join(root, '.git')) ? `repo:${from(root)}` : real;
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

/**
 * The manifest of the run planned under the key, refused when it is not this fleet's plan: also
 * when its servers whose URL holds a secret are others, or cannot be told from this plan's and
 * the key is the CI run's (`servers`: app/shard-servers.ts).
 */
export function checkKeyed(
  manifest: Manifest,
  fleet: Fleet,
  shards: number,
  assign: string,
  key: string,
  servers: (manifest: Manifest) => { why: string; hint: string } | undefined = () => undefined,
): void {
  refuseOtherHashing(manifest, fleet);
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
        hint: `give shard the files, --var values, --shards and --assign of its first attempt (its workers would be refused), or plan another rollout under a key of its own: another --run-key`,
      },
    );
  const other = servers(manifest);
  if (other)
    throw new UsageError(
      'SHARD_REFUSED',
      `run ${manifest.run} was planned under this key, and its servers may not be this plan's: ${other.why} (the key: ${key})`,
      { hint: other.hint },
    );
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
  /** The key is --run-key, the user's name of this plan (not the CI run's, which its matrix of plan jobs share). */
  named?: boolean;
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
  const path = key === undefined ? undefined : runKeyPath(key, fileIdentity(o.cwd, o.file, o.env), fleet.vars);
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
    if (manifest && key !== undefined)
      checkKeyed(manifest, fleet, o.shards, o.assign, key, (m) =>
        keyedServersRefusal(m, pipeline, o.env, o.named === true),
      );
    return manifest;
  };
  const standing = standings(store, journalKey(o.env), o.now);
  const existing = keyed ? await found(keyed) : undefined;
  if (existing)
    return { manifest: existing, again: told.replace(/\)$/, `${await standsWords(standing, existing.run)})`) };
  if (!o.newRun) {
    const last = await earlierRuns(store, fleet, standing, keyed || undefined, (line) =>
      o.stderr(`${neutralise(`enginectl: warning: ${line}`)}\n`),
    );
    if (last) o.stderr(`${neutralise(`enginectl: ${last}`)}\n`);
  }
  let run = keyed || newRunId(o.now());
  // Named under the key first (create-only): two plan jobs of one CI run plan one run.
  if (path && !keyed) {
    run = await nameRun(store, path, { run, key: key!, file: o.file, at: o.now() });
    const other = await found(run);
    if (other) return { manifest: other, again: told };
  }
  // The fleet's next slot, create-only: a plan of another CI run at once stands aside (--new-run does not).
  const holder = await takeSlot(
    store,
    fleet,
    run,
    o.now(),
    o.newRun ? undefined : async (r) => !(await ourRun(store, r, () => standing(r))).ended,
  );
  if (holder) throw notEnded(store, await standing(holder));
  const manifest = makeManifest(pipeline, fleet, {
    run,
    shards: o.shards,
    assign: o.assign,
    at: o.now(),
    by: operatorOf(o.env),
    ...keptServers(pipeline, o.env),
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
