// A fleet's runs in the run store, and where each stands, as \`enginectl shard\` reads them before
// it plans: a run of the same pipeline and inventory that has not ended refuses a new plan (its
// state said, with how to go on), the last that ended is said in a line, and a run this enginectl
// cannot read is named with how to plan past it. Each run is read once per plan, as the merged
// report reads it (report --merge --store: the one reader of a sharded run's state).
import { UsageError } from '../errors.ts';
import type { Report } from '../report/model.ts';
import { NoShardedRun, readManifest, type Manifest } from '../shard/manifest.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import type { Fleet } from './shard-plan.ts';
import { shardedReport } from './shard-report.ts';
import { shardedRuns } from './sharded-runs.ts';
import { shellWord } from '../text/shell-word.ts';

/** A run of the fleet as it stands: ended (and how, when), or not (and where). */
export interface Standing {
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
  // Halted (an abort among them) before any worker started a site: ended all the same.
  if (rollout?.halted) {
    const { wave, aborted } = rollout.halted;
    return {
      run,
      ended: true,
      state: aborted ? `aborted at wave ${wave}` : `failure (halted at wave ${wave})`,
      // An abort ends it when it is made, after the last of its sites (or its plan).
      at: aborted ? Math.max(at, aborted.at) : at,
    };
  }
  if (report.merged?.reports.length === 0) return notEnded('planned, no worker started a site yet');
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
          hint: `wait for that plan job to end; one that stopped plans run ${run} when it is run again under its key (the same CI run, or --run-key), or plan past it with --new-run, which takes the fleet's next slot`,
        };
      throw e;
    }
  };
  return (run: string) => read.get(run) ?? read.set(run, standing(run)).get(run)!;
}

/** A run of this fleet (its slot or its manifest says) this enginectl cannot read (damaged, or a newer version's): refused, named, with how to plan past it. */
/** A record this enginectl cannot read (damaged, or a newer version's), as against a store that failed. */
const unreadable = (e: unknown): e is StoreError & { code: 'STORE_DAMAGED' | 'STORE_VERSION' } =>
  e instanceof StoreError && (e.code === 'STORE_DAMAGED' || e.code === 'STORE_VERSION');

export async function ourRun<T>(store: RunStore, run: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (!unreadable(e)) throw e;
    throw new StoreError(
      e.code,
      `run ${run} of this fleet in ${store.url} cannot be read (${e.message}): shard cannot tell whether it has ended`,
      {
        hint: `put its record back from the store's versions or backup (a newer enginectl's run: plan with that version), or plan past it on purpose with --new-run once you know it is not under way`,
        cause: e,
      },
    );
  }
}

/** How the key's run printed again stands, in words after its line (none when a record of it is unreadable: its workers say so). */
export async function standsWords(standing: (run: string) => Promise<Standing>, run: string): Promise<string> {
  const s = await standing(run).catch((e: unknown) => {
    if (e instanceof StoreError) return undefined;
    throw e;
  });
  if (!s) return '';
  return s.ended
    ? `; it ended ${s.state} at ${new Date(s.at).toISOString()}: its workers start no site: to roll the fleet out again, plan under another key (a new CI run, or --run-key)`
    : `; it has not ended: ${s.state}`;
}

/** The refusal of a plan while `open`, a run of its fleet, has not ended. */
export function notEnded(store: RunStore, open: Standing): UsageError {
  return new UsageError(
    'SHARD_REFUSED',
    `run ${open.run} of this fleet (the same pipeline and inventory) in ${store.url} has not ended (${open.state}): another run would roll the fleet out beside it, with a failure budget of its own`,
    {
      hint:
        open.hint ??
        `go on with it: run its workers again (the same commands, --run ${open.run}; runs --store URL says where it stands); or end it: enginectl decide --store ${shellWord(store.url)} --run ${open.run} --abort --reason TEXT; or plan a second rollout on purpose with --new-run`,
    },
  );
}

/**
 * Whether a run's manifest is of this fleet: its file and inventory, and where both say them the
 * key's fingerprints of its secret servers (a manifest without them, of an earlier enginectl or
 * planned without the key, may be any environment's: it is this fleet's).
 */
const sameFleet = (manifest: Manifest, fleet: Fleet) =>
  manifest.sha256 === fleet.sha256 &&
  manifest.inventory === fleet.inventory &&
  (manifest.places === undefined || !fleet.places || manifest.places === fleet.places);

/**
 * The runs of the store of this fleet (the same pipeline and inventory hashes) but `except` (the
 * key's own): refused when one has not ended; the line that says the last that ended, when one did.
 */
export async function earlierRuns(
  store: RunStore,
  fleet: Fleet,
  standing: (run: string) => Promise<Standing>,
  except: string | undefined,
  warn: (line: string) => void,
): Promise<string | undefined> {
  const found: Standing[] = [];
  for (const id of [...(await shardedRuns(store)).ids].sort().reverse()) {
    if (id === except) continue;
    // A manifest unreadable may be any fleet's: said, and passed over (this fleet's last run is
    // read again by its slot, and refused there when it is the one).
    const manifest = await readManifest(store, id).catch((e: unknown) => {
      if (!unreadable(e)) throw e;
      warn(
        `run ${id} (its manifest in ${store.url}) cannot be read (${e.code}): passed over as a run of another fleet`,
      );
      return undefined;
    });
    if (!manifest || !sameFleet(manifest, fleet)) continue;
    found.push(await ourRun(store, id, () => standing(id)));
  }
  const open = found.find((s) => !s.ended);
  if (open) throw notEnded(store, open);
  const last = found[0];
  return last
    ? `the last run of this fleet (${last.run}) ended ${last.state} at ${new Date(last.at).toISOString()}: this plans a new rollout that sends its writes again`
    : undefined;
}
