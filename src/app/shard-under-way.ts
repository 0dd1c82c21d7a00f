// A sharded run read while its workers still run (report --merge --store): what is under way is
// told as under way. A site whose worker still holds its lease (the attempt that owns the site,
// its lease not lapsed on the reader's clock) is running: its steps not ended are UNDER_WAY, a call
// sent and not yet answered is in flight, not in doubt. A site no worker started while a worker of
// the run is alive is not started yet, not "no report". Once a lease lapsed, what its worker left is
// a killed run's (its calls in doubt), as the store holds it: a later attempt resumes it.
import { reportStep, type Report, type ReportStep } from '../report/model.ts';
import { newInstance } from '../runner/instance.ts';
import { leaseState } from '../store/lease.ts';
import type { RunStore } from '../store/store.ts';
import { workerLease, type Manifest } from '../shard/manifest.ts';
import type { Planned } from './shard-instances.ts';

/** A worker attempt alive when read: its lease held by it, not released, not lapsed. */
export interface LiveHolder {
  holder: string;
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

/** Who holds a site under way, in the words every rendering shows. */
export const heldBy = (worker: number, manifest: Manifest, until: number) =>
  `shard ${worker + 1}/${manifest.shards} holds it until ${new Date(until).toISOString()}`;

/**
 * A running site's report as it stands: each step not ended (in flight, started, or not yet
 * started) UNDER_WAY, saying who holds the site; its ended steps as they ended.
 */
export function asUnderWay(report: Report, site: string, held: string): Report {
  const holds = held.replace(' holds it ', ` holds ${site} (its lease `) + ')';
  return {
    ...report,
    steps: report.steps.map((s) => {
      const code = s.error?.code;
      if (s.outcome !== 'cancelled' || (code !== 'IN_DOUBT' && code !== 'NOT_FINISHED' && code !== 'NOT_STARTED'))
        return s;
      const message =
        code === 'NOT_STARTED'
          ? `not started yet: ${holds}`
          : `under way when this report was read: ${holds}${s.inDoubt ? `; its call ${s.inDoubt.method} ${s.inDoubt.path} is sent, its answer not yet recorded` : ''}`;
      return { ...s, inDoubt: null, decision: null, error: { code: 'UNDER_WAY', message, hint: HINT } };
    }),
  };
}

const HINT = 'read the report again once the run’s workers ended';

/** The steps of the sites no worker had started while the run was under way at wave `at`, as planned. */
export function notStartedYet(
  planned: readonly Planned[],
  manifest: Manifest,
  sites: readonly { site: string; wave: number }[],
  at: number,
): ReportStep[] {
  const waiting = new Map(sites.map(({ site, wave }) => [site, wave]));
  return planned.flatMap((identity) => {
    const wave = waiting.get(String(identity.matrix?.[manifest.over]));
    if (wave === undefined) return [];
    return [
      reportStep(
        newInstance(
          { ...identity, key: '' },
          {
            wave,
            error: {
              code: 'UNDER_WAY',
              message: `not started yet: the run is under way at wave ${at}`,
              hint: HINT,
            },
          },
        ),
      ),
    ];
  });
}
