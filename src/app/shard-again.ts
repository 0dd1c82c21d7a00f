// `enginectl shard` run again for a fleet. The same CI run (its plan job re-run: GitHub's "Re-run
// all jobs", a GitLab pipeline retry; or the same --run-key) gets the same sharded run: a
// create-only key in the store (ci/shard/DIGEST, a digest of the key and the pipeline file's path)
// names the run planned under it, whose fan-out is printed again, nothing new written, when the
// pipeline and inventory hashes, the shards and the assignment are the same (else refused, as its
// workers would be). Planned without a key match, a run of the same fleet (pipeline and inventory
// hashes) that has not ended is a refusal (--new-run plans a second rollout on purpose), and the
// last one that ended is said in a line: the new rollout sends its writes again.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import type { Report } from '../report/model.ts';
import { readManifest, readShardRecord, type Manifest } from '../shard/manifest.ts';
import type { RunStore } from '../store/store.ts';
import type { Fleet } from './shard-plan.ts';
import { shardedReport } from './shard-report.ts';
import { shardedRuns } from './sharded-runs.ts';

const KeyRecord = z.object({ run: z.string(), key: z.string(), file: z.string(), at: z.number() });

/** Where the run planned under `key` for `file` is named. */
export const runKeyPath = (key: string, file: string) =>
  `ci/shard/${createHash('sha256')
    .update(JSON.stringify([key, file]))
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

/**
 * The runs of the store of this fleet (the same pipeline and inventory hashes): refused when one
 * has not ended; the line that says the last that ended, when one did.
 */
export async function earlierRuns(
  store: RunStore,
  fleet: Fleet,
  journalKey: string | undefined,
  now: number,
): Promise<string | undefined> {
  const standings: Standing[] = [];
  for (const id of [...(await shardedRuns(store)).ids].sort().reverse()) {
    const manifest = await readManifest(store, id);
    if (manifest.sha256 !== fleet.sha256 || manifest.inventory !== fleet.inventory) continue;
    standings.push(standingOf(id, (await shardedReport(store, id, journalKey, now)).report));
  }
  const open = standings.find((s) => !s.ended);
  if (open)
    throw new UsageError(
      'SHARD_REFUSED',
      `run ${open.run} of this fleet (the same pipeline and inventory) in ${store.url} has not ended (${open.state}): another run would roll the fleet out beside it, with a failure budget of its own`,
      {
        hint: `go on with it: run its workers again (the same commands, --run ${open.run}; runs --store URL says where it stands); or end it: enginectl decide --store ${store.url} --run ${open.run} --abort --reason TEXT; or plan a second rollout on purpose with --new-run`,
      },
    );
  const last = standings[0];
  return last
    ? `the last run of this fleet (${last.run}) ended ${last.state} at ${new Date(last.at).toISOString()}: this plans a new rollout that sends its writes again`
    : undefined;
}
