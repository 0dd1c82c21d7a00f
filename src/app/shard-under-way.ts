// A sharded run read while its workers still run (report --merge --store): what is under way is
// told as under way. A site whose worker still holds it (the attempt that owns the site, its lease
// not lapsed on the reader's clock, the site not ended) is running: its steps not ended are
// UNDER_WAY, a call sent and not yet answered is in flight, not in doubt. A site no worker started
// is not started yet when a worker alive will start it (queue: any; static: its own shard's; a
// later wave: any), not "no report". Once a lease lapsed, what its worker left is a killed run's
// (its calls in doubt), as the store holds it: a later attempt resumes it.
import type { Report } from '../report/model.ts';
import type { StepError } from '../runner/instance.ts';
import { leaseState } from '../store/lease.ts';
import type { RunStore } from '../store/store.ts';
import { shardOf, workerLease, type Manifest } from '../shard/manifest.ts';
import type { WaveState } from '../shard/wave-log.ts';

/** A worker attempt alive when read: its lease held by it, not released, not lapsed. */
interface LiveHolder {
  holder: string;
  until: number;
}

/** Who holds a site under way: its shard (1-based) of how many, and until when its lease runs (epoch ms). */
export interface Holder {
  shard: number;
  of: number;
  until: number;
}

/** Each worker (0-based) whose lease is held and not lapsed at `now`, with its holder and expiry. */
export async function liveWorkers(store: RunStore, manifest: Manifest, now: number): Promise<Map<number, LiveHolder>> {
  const live = new Map<number, LiveHolder>();
  for (let i = 0; i < manifest.shards; i++) {
    const state = await leaseState(store, workerLease(manifest.run, i));
    if (state && state.record.kind !== 'release' && now <= state.record.expiresAt)
      live.set(i, { holder: state.record.holder.runId, until: state.record.expiresAt });
  }
  return live;
}

/** Who holds `site`, when the attempt that owns it is alive and it has not ended; else undefined. */
export function holderOf(
  site: string,
  log: WaveState,
  live: ReadonlyMap<number, LiveHolder>,
  manifest: Manifest,
): Holder | undefined {
  const owner = log.owners.get(site);
  if (!owner || log.ended.has(site)) return undefined;
  const alive = live.get(owner.worker);
  return alive?.holder === owner.holder
    ? { shard: owner.worker + 1, of: manifest.shards, until: alive.until }
    : undefined;
}

/** Whether a worker alive will start `site` of wave `wave` (0-based), the rollout standing at `standing`. */
export function willStart(
  site: string,
  wave: number,
  standing: number,
  live: ReadonlyMap<number, LiveHolder>,
  manifest: Manifest,
): boolean {
  if (live.size === 0) return false;
  return wave > standing || manifest.assign === 'queue' || live.has(shardOf(site, manifest.shards));
}

/** "shard 1/8 holds site-0002 (its lease until …)": who holds a site, in words. */
export const holdsText = (site: string, h: Holder) =>
  `shard ${h.shard}/${h.of} holds ${site} (its lease until ${new Date(h.until).toISOString()})`;

const HINT = 'read the report again once the run’s workers ended';

/** What a read of a site under way says of its call's answer so far. */
function answerSoFar(d: NonNullable<Report['steps'][number]['inDoubt']>): string {
  if (d.status === undefined || d.status === null) return 'its outcome not yet recorded';
  return d.applied
    ? `answered ${d.status} (applied); the step is not ended`
    : `answered ${d.status}, which does not say what the server did; the step is not ended`;
}

/**
 * A running site's report as it stands: each step not ended (in flight, started, or not yet
 * started) UNDER_WAY, saying who holds the site; its ended steps as they ended.
 */
export function asUnderWay(report: Report, site: string, holder: Holder, window?: number): Report {
  const holds = holdsText(site, holder);
  // Its worker waits for the site's window (`window`, when it opens): nothing of it runs before then.
  const asleep = window !== undefined;
  const waits = !asleep
    ? ''
    : `waits for its window (opens at ${new Date(window).toISOString()}) when this report was read: ${holds} and waits for it; nothing of it is sent before it opens`;
  // An earlier attempt interrupted left its steps cancelled (CANCELLED, as its journal says why it
  // stopped): the site is held again, those are under way too, begun or not as that attempt left them.
  const cut = (s: Report['steps'][number]) => s.outcome === 'cancelled' && s.error?.code === 'CANCELLED';
  const open = (s: Report['steps'][number], codes: string[]) =>
    (s.outcome === 'cancelled' && codes.includes(s.error?.code ?? '')) ||
    (cut(s) && codes.includes(s.startedAt === null ? 'NOT_STARTED' : 'NOT_FINISHED'));
  // Parked for a window that has opened on the reader's clock (`window` undefined): its worker goes on with it, a step not begun.
  const fresh = (s: Report['steps'][number]) => open(s, asleep ? ['NOT_STARTED'] : ['NOT_STARTED', 'WINDOW_PARKED']);
  // With no step of the site open, the first with no record may be running already (a system
  // update reads the Engines before its write's record): not "not started". Those after it are not.
  const running = report.steps.some((s) => open(s, ['IN_DOUBT', 'NOT_FINISHED']))
    ? undefined
    : report.steps.find(fresh);
  return {
    ...report,
    // Held and not waiting for its window, a site whose run parked for it before is going on with it.
    parked: asleep ? report.parked : null,
    steps: report.steps.map((s) => {
      const parked = asleep && open(s, ['WINDOW_PARKED']);
      if (!parked && !fresh(s) && !open(s, ['IN_DOUBT', 'NOT_FINISHED'])) return s;
      // A call answered (a gateway's 504 recorded, the step waiting to retry) is not one with no outcome yet.
      const call = s.inDoubt
        ? `; its call ${s.inDoubt.method} ${s.inDoubt.path} is sent, ${answerSoFar(s.inDoubt)}`
        : '';
      const message = parked
        ? waits
        : !fresh(s)
          ? `under way when this report was read: ${holds}${call}`
          : s === running
            ? `under way when this report was read: ${holds}; this step is not recorded as started yet`
            : `not started yet: ${holds}`;
      return { ...s, inDoubt: null, error: { code: 'UNDER_WAY', message, hint: HINT } };
    }),
  };
}

/** Why a site of a run under way has no step of its own yet: held (no step recorded), not started yet, or never to start (its wave's budget spent). */
export function waitingError(
  site: string,
  at: number,
  held: Holder | undefined,
  budgetSpent: { wave: number; budget: number } | undefined,
): StepError {
  const message = held
    ? `under way when this report was read: ${holdsText(site, held)}; no step of it recorded yet`
    : budgetSpent
      ? spentText(budgetSpent)
      : `not started yet: the run is under way at wave ${at}`;
  return { code: 'UNDER_WAY', message, hint: HINT };
}

/**
 * Why a site did not start, its workers gone mid-wave: its wave not reached, or (`spent`) the wave
 * it stands at past its budget, where no site starts any more.
 */
export const beyondError = (at: number, spent: { wave: number; budget: number } | undefined): StepError =>
  spent
    ? {
        code: 'NOT_STARTED',
        message: spentText(spent),
        hint: 'run the shards whose sites of that wave have not ended again (the same command): once they ended, the rollout halts there',
      }
    : {
        code: 'NOT_STARTED',
        message: `not started: the rollout stands at wave ${at}, which has not ended everywhere, and no worker of the run is running`,
        hint: 'run the shards whose sites of that wave have not ended again (the same command): the rollout goes on from there',
      };

/** A site of a wave past its budget that no worker started: it never will. */
const spentText = (spent: { wave: number; budget: number }) =>
  `not started: wave ${spent.wave}'s failures passed its budget of ${spent.budget}; the rollout halts once its sites ended`;
