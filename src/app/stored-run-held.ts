// Longer than 250 lines: what holds a stored run (its fleet lease, its own, a shard worker's) and how long, read in one pass.
// A run of the run store that a live runner still writes: verify --store URL --run ID refuses it
// (JOURNAL_LOCKED, exit 2), as verify of a JOURNAL file refuses one whose lock a live process
// holds, and so does decide (a run going on is not parked now, whatever its journal said last):
// the calls that runner has in flight are not in doubt, it waits for their answers. What says a
// runner is alive is the lease it renews: held while its newest record is not a release and its
// expiry has not passed on this machine's clock; lapsed after (its runner stopped, or was cut from
// the store: a takeover verifies its calls then, and so may verify, saying so). Its expiry is on
// the runner's clock: decide and verify, which act on what they read, take it as lapsed only once
// it is a whole ttl past on this one, as a waiter that has not watched the lease would
// (store/lapse.ts); report and a resume (which takes the lease, confirming the lapse) read it as
// written. A run's fleet lease (lease:, --lease) names the run as its holder. A site of a sharded
// run is its worker's while the attempt its wave's log names as the site's owner holds that
// worker's lease (RUN.shard-I) and the site has not ended (app/shard-under-way.ts reads a run under
// way the same way): run --resume/--continue of that site's run is refused too
// (app/run-own-lease.ts), its worker holding no run.ID. A lease kept by a parked run (park: {
// keep-lease: true }) has no runner behind it: that run exited.
import { UsageError } from '../errors.ts';
import type { JournalState } from '../journal/read.ts';
import { LEASE_JOURNAL_VERSION } from '../journal/records.ts';
import { formatDuration } from '../duration.ts';
import { readManifest, workerLease, workerLeaseOf, type Manifest } from '../shard/manifest.ts';
import { WaveLog } from '../shard/wave-log.ts';
import { holderText, newestOfEachLease, type LeaseRecord } from '../store/lease.ts';
import { heldTtl, longPastAt } from '../store/lapse.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import type { WaysOn } from '../ways-on.ts';

interface Lease {
  name: string;
  record: LeaseRecord;
}

/** What holds a run: the lease, and the words that say whose it is. */
interface Holding {
  lease: Lease;
  /** "run R of A on H", or "site S of sharded run R, by shard I/N (run R of A on H)". */
  who: string;
  /** What to read while it runs (enginectl lease status, report --merge). */
  watch: string;
}

/** How long the own lease of a runner that stopped without releasing it keeps decide refused, when the runner holds no fleet lease (with one, the fleet lease's ttl: both say the same runner is alive). */
export const OWN_LEASE_TTL_MS = 2 * 60_000;

/** The name of a run's own lease, which every runner of a stored run holds (app/run-own-lease.ts). */
export const ownLeaseName = (runId: string) => `run.${runId}`;

/**
 * The newest record of each lease the store holds (newestOfEachLease: a lagging listing read past),
 * the run's own lease and those its journal names read by name when none of their keys is listed;
 * another run's own lease (run.X) holds no run but X: its listed newest alone. A damaged record
 * (STORE_DAMAGED) of a lease `mayHold` says cannot hold the run is left out: that lease is not this
 * run's, whatever it says; one of a lease that may hold it refuses.
 */
async function newestLeases(
  store: RunStore,
  runId: string,
  known: string[],
  mayHold: (name: string) => Promise<boolean>,
  ways: WaysOn | undefined,
) {
  const records = await newestOfEachLease(
    store,
    known,
    (name) => !name.startsWith('run.') || known.includes(name),
    async (name, error) => {
      // A newer enginectl's record (STORE_VERSION) of such a lease alike: another fleet may run a newer version.
      if (error instanceof StoreError && (error.code === 'STORE_DAMAGED' || error.code === 'STORE_VERSION'))
        if (!(await mayHold(name))) return;
      throw error;
    },
    ways,
  );
  return new Map([...records].map(([name, record]) => [name, { name, record }]));
}

/**
 * Whether lease `name` may hold run `runId`: its own lease (run.ID), the fleet lease(s) its
 * journal's last run names in its `lease` record ("a, b" for a run over several), or the worker of
 * a sharded run whose wave log names `runId` as the run of the site that worker owns (RUN.shard-I:
 * ownerOf, as siteHolding reads it). A journal whose last run has no lease record (a run of
 * version 4 without a fleet lease, or of version 3) may be an enginectl's that recorded no lease, and held a
 * fleet lease of any name: every lease may hold it then. So may any when the record names a lease
 * in words that are not a lease's name (masked). All leases are still read, whatever their names:
 * a continue that took a lease its journal does not name yet (the pipeline's lease renamed since)
 * holds the run before its run record says so, and is found by the holder its record names.
 */
function leasesThatMayHold(store: RunStore, runId: string, state: JournalState): (name: string) => Promise<boolean> {
  const named = state.lease?.name.split(', ');
  if (!named || !named.every((n) => /^[A-Za-z0-9][A-Za-z0-9._=-]{0,99}$/.test(n))) return () => Promise.resolve(true);
  return async (name) => {
    if (name === ownLeaseName(runId) || named.includes(name)) return true;
    const worker = workerLeaseOf(name);
    if (!worker) return false;
    const owned = await ownerOf(store, worker.run, state);
    return owned?.owner.siteRun === runId && owned.owner.worker === worker.index;
  };
}

/** A lease with a runner behind it, held or lapsed: not given up, not kept by a parked run. */
const heldOnce = (r: LeaseRecord) => r.kind !== 'release' && r.parked !== true;

/**
 * The site of sharded run `run` that the journal's last run was selected to (its one value of the
 * manifest's `over`), with the owner its wave's log names for it and whether it has ended;
 * undefined when there is none (no such sharded run: a lease named like a worker's that is not one).
 */
async function ownerOf(store: RunStore, run: string, state: JournalState) {
  let manifest: Manifest;
  try {
    manifest = await readManifest(store, run);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'STORE_REFUSED') return undefined;
    throw error;
  }
  const selected = state.runs.at(-1)?.only?.[manifest.over];
  const site = selected?.length === 1 ? selected[0]! : undefined;
  const wave = site === undefined ? -1 : manifest.waves.findIndex((w) => w.includes(site));
  if (wave < 0) return undefined;
  const log = await new WaveLog(store, run, wave + 1).read();
  const owner = log.owners.get(site!);
  return owner ? { manifest, site: site!, owner, ended: log.ended.has(site!) } : undefined;
}

/** The site of a sharded run whose worker holds run `runId`, with that worker's lease; undefined when none does. */
async function siteHolding(
  store: RunStore,
  runId: string,
  state: JournalState,
  leases: ReadonlyMap<string, Lease>,
): Promise<Holding | undefined> {
  const runs = new Set<string>();
  for (const lease of leases.values()) {
    const worker = workerLeaseOf(lease.name);
    if (worker && heldOnce(lease.record)) runs.add(worker.run);
  }
  for (const run of runs) {
    const owned = await ownerOf(store, run, state);
    if (!owned) continue;
    const { manifest, site, owner, ended } = owned;
    if (owner.siteRun !== runId || ended) continue;
    const lease = leases.get(workerLease(run, owner.worker));
    if (!lease || !heldOnce(lease.record) || lease.record.holder.runId !== owner.holder) continue;
    return {
      lease,
      who: `${manifest.over} ${site} of sharded run ${run}, by shard ${owner.worker + 1}/${manifest.shards} (${holderText(lease.record.holder)})`,
      watch: `enginectl report --merge --store URL --run ${run} shows it under way`,
    };
  }
  return undefined;
}

/**
 * What holds run `runId`: its fleet lease, or the worker lease of the sharded run whose site it is;
 * undefined when nothing does. `sites`: the worker's alone (a runner of the run holding its fleet lease itself).
 */
async function holdingOf(
  store: RunStore,
  runId: string,
  state: JournalState,
  sites = false,
  ways?: WaysOn,
): Promise<Holding | undefined> {
  const named = (state.lease?.name.split(', ') ?? []).filter((n) => /^[A-Za-z0-9][A-Za-z0-9._=-]{0,99}$/.test(n));
  const leases = await newestLeases(
    store,
    runId,
    [ownLeaseName(runId), ...named],
    leasesThatMayHold(store, runId, state),
    ways,
  );
  if (sites) return siteHolding(store, runId, state, leases);
  const own = [...leases.values()].filter((l) => heldOnce(l.record) && l.record.holder.runId === runId);
  // A run over several leases (lease: over:) holds them all: the one that lapses last says it best;
  // a fleet lease before the run's own (the name the operator gave and watches), which every runner holds too.
  const mine = ownLeaseName(runId);
  const fleet = own.sort(
    (a, b) => +(a.name === mine) - +(b.name === mine) || b.record.expiresAt - a.record.expiresAt,
  )[0];
  if (fleet)
    return {
      lease: fleet,
      who: holderText(fleet.record.holder),
      watch: `enginectl lease status --store URL ${fleet.name}`,
    };
  return siteHolding(store, runId, state, leases);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The lease that holds the run, when one does: refused (JOURNAL_LOCKED) while renewed; a lapsed one's warning. */
async function leaseHeld(
  store: RunStore,
  runId: string,
  state: JournalState,
  command: string,
  now: number,
  nothing: string,
  options: { sites: boolean; confirmed: boolean; ways: WaysOn | undefined },
): Promise<string | undefined> {
  const holding = await holdingOf(store, runId, state, options.sites, options.ways);
  if (!holding) return undefined;
  const { lease, who } = holding;
  const name = `${store.url} run ${runId}`;
  // Its expiry is on its runner's clock: a command that acts on the run (confirmed) reads it lapsed
  // only once a whole ttl past on this one, as a waiter that has not watched it would (store/lapse.ts).
  const lapsedAt = options.confirmed ? longPastAt(lease.record) : lease.record.expiresAt;
  if (now > lapsedAt)
    return `${name}: its lease ${lease.name} (${who}) lapsed at ${iso(lease.record.expiresAt)} without a renewal: its runner stopped, or was cut from the store`;
  if (now > lease.record.expiresAt)
    throw new UsageError(
      'JOURNAL_LOCKED',
      `${name} may still be in use by ${who}: its lease ${lease.name} lapsed at ${iso(lease.record.expiresAt)} on this clock, less than its ttl (${formatDuration(heldTtl(lease.record))}) ago, and that runner's clock may be behind this one: a call it has in flight is not in doubt`,
      {
        hint: `${command} again after ${iso(lapsedAt)} on this clock, once the lapse is a whole ttl old (${holding.watch} says whether it was renewed). ${nothing}`,
      },
    );
  throw new UsageError(
    'JOURNAL_LOCKED',
    `${name} is in use by ${who}, whose lease ${lease.name} is renewed until ${iso(lease.record.expiresAt)}: the run that writes it is still running, and a call it has in flight is not in doubt`,
    {
      hint: `${command} once that run has ended (${holding.watch}). If its runner is gone, its lease lapses at ${iso(lease.record.expiresAt)} unless renewed; ${command} again then. ${nothing}`,
    },
  );
}

/**
 * For a command that reads a stored run and must not while a runner writes it (a resume, verify,
 * decide, report): refused (JOURNAL_LOCKED) while the lease of the runner that holds the run is
 * renewed (one that lapsed does not stop it: told to `warn`). `sites`: a runner of the run itself,
 * its own leases held, refused only by a site's live worker. So is a run whose last runner was an
 * earlier enginectl, which held no lease a live runner keeps (its run record of version 2 or 3),
 * and which did not end: whether it is alive cannot be read from the store, so its last record
 * stands for its hold as long as a run's own lease would (OWN_LEASE_TTL_MS, this machine's clock).
 */
export async function refuseWhileRunning(
  store: RunStore,
  runId: string,
  state: JournalState,
  command: string,
  now: number,
  /** What the refusal says it did not do. */
  nothing: string,
  /** `ways`: how the surface names the ways on, in a refusal of a lease's record (the CLI's by default). */
  options: { sites?: boolean; warn?: (warning: string) => void; confirmed?: boolean; ways?: WaysOn | undefined } = {},
): Promise<void> {
  const warning = await leaseHeld(store, runId, state, command, now, nothing, {
    sites: options.sites ?? false,
    confirmed: options.confirmed ?? false,
    ways: options.ways,
  });
  if (warning) options.warn?.(warning);
  const last = state.runs.at(-1)!;
  const ago = now - state.lastAt;
  // It ended: its finish record, or a park of its own (a park after its run record; one before it is the park it went on from).
  const ended = state.finished || (state.parked !== undefined && state.parked.at >= last.at);
  if (last.v >= LEASE_JOURNAL_VERSION || ended || ago >= OWN_LEASE_TTL_MS) return;
  throw new UsageError(
    'JOURNAL_LOCKED',
    `${store.url} run ${runId}: its last runner, an earlier enginectl (journal version ${last.v}) that holds no lease a live runner keeps, wrote its last record ${formatDuration(Math.max(0, ago))} ago and did not end: it may still be running, and a call it has in flight is not in doubt`,
    {
      hint: `${command} once that runner's job has ended, or after ${iso(state.lastAt + OWN_LEASE_TTL_MS)} (2 minutes after its last record, as a run's own lease lapses); ${nothing.charAt(0).toLowerCase()}${nothing.slice(1)}`,
    },
  );
}
