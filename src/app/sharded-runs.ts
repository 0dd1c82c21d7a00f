// The sharded runs of a run store, for `enginectl runs`: each is one run of the store's listing,
// its sites' runs listed under it, not as runs of their own (a rollout of 1,000 sites would
// otherwise be the newest 1,000 lines); where it stands is the merged report's reading of it
// (report --merge --store: the one reader of a sharded run's state), in a line.
import type { Report } from '../report/model.ts';
import type { RunStore } from '../store/store.ts';
import { shardedReport } from './shard-report.ts';

/** A sharded run found in the store: its id, and the site runs its workers started. */
export interface ShardedRuns {
  /** The sharded runs' ids, as `shards/ID/manifest` names them. */
  ids: Set<string>;
  /** The runs a worker started for a site (`shards/ID/runs/SITE_RUN`): listed under their sharded run. */
  siteRuns: Set<string>;
}

/** The sharded runs and their sites' runs, from one listing of `shards/` (no key read). */
export async function shardedRuns(store: RunStore): Promise<ShardedRuns> {
  const ids = new Set<string>();
  const siteRuns = new Set<string>();
  for (const key of await store.list('shards/')) {
    const manifest = /^shards\/([^/]+)\/manifest$/.exec(key);
    if (manifest) ids.add(manifest[1]!);
    const site = /^shards\/[^/]+\/runs\/([^/]+)$/.exec(key);
    if (site) siteRuns.add(site[1]!);
  }
  return { ids, siteRuns };
}

/** A sharded run as `runs` lists it: when it was planned, its pipeline, and where it stands. */
export interface ShardedRunListed {
  at: number;
  name: string;
  file: string;
  shards: number;
  sites: number;
  /** Where it stands, in words: under way, parked, halted, stopped, or its outcome. */
  state: string;
  /** Parked (no worker alive): where, since when, what for, and how it goes on. */
  parked?: { wave: number; since: string; reason: string; goOn: string };
}

/** Reads a sharded run as the merged report does, at `now` on the reader's clock. */
export async function listShardedRun(
  store: RunStore,
  id: string,
  key: string | undefined,
  now: number,
): Promise<ShardedRunListed> {
  const { report, sites, manifest } = await shardedReport(store, id, key, now);
  const parked = parkedOf(report);
  return {
    at: manifest.at,
    name: manifest.name,
    file: manifest.file,
    shards: manifest.shards,
    sites,
    state: stateOf(report, parked),
    ...(parked ? { parked } : {}),
  };
}

function parkedOf(report: Report): ShardedRunListed['parked'] {
  const parked = report.parked;
  if (!parked || report.outcome === 'under-way') return undefined;
  const goOn =
    parked.for === 'bake'
      ? `run its workers again (the same commands) at or after ${parked.until ?? 'the bake'}`
      : parked.for === 'window'
        ? `run its workers that parked again (the same commands) at or after ${parked.until ?? 'the window'}`
        : 'run its workers that parked again (the same commands)';
  return { wave: parked.wave, since: parked.since, reason: parked.reason, goOn };
}

function stateOf(report: Report, parked: ShardedRunListed['parked']): string {
  const rollout = report.rollout;
  const underWay = report.merged?.underWay;
  if (underWay) return `under way at wave ${underWay.wave}`;
  if (parked) return `parked at wave ${parked.wave}`;
  if (rollout?.halted) return `halted at wave ${rollout.halted.wave}`;
  if (rollout?.stopped) return `stopped in wave ${rollout.stopped}`;
  if (report.merged?.reports.length === 0) return 'planned, no worker started a site yet';
  return report.outcome;
}
