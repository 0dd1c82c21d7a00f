// A site of a sharded run taken over (app/shard-site.ts), read before anything is verified or
// sent: whether a runner of the site's run itself holds it now (an operator's run --resume of it,
// by the run's own lease), and whether its run had ended before its end reached the wave's log
// (then its outcome is the site's: it is not resumed, a write it failed is not sent again).
// And whether it waits for its window (its run parked for it), which a wave past its budget leaves
// parked: a call of it in doubt from before its park is read back and said, nothing sent.
// And, once verify could not tell a call of it, its steps read for the worker's reports.
import { readFileSync } from 'node:fs';
import { passedOver } from '../journal/passed-over.ts';
import { journalReport } from '../journal/release.ts';
import { readJournal, type JournalState } from '../journal/read.ts';
import { inDoubtInstances } from '../journal/verify.ts';
import { journalKey } from '../journal/seal.ts';
import { undecidedDoubts } from '../runner/result.ts';
import { maskLease } from '../runner/mask-model.ts';
import { holderText, leaseState, type HeldLease } from '../store/lease.ts';
import type { SiteEnd } from '../shard/worker.ts';
import { shardedHints } from './shard-hints.ts';
import type { SiteReport } from './shard-worker-report.ts';
import type { ShardWorkerRequest } from './shard-request.ts';
import { ownLeaseName } from './stored-run-held.ts';
import { verifyJournal } from './verify.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { StoredRun } from './stored-run.ts';
import { storedWays } from '../ways-on.ts';

/** Who holds run `runId` by its own lease (run.ID) now, renewed on this worker's clock: a runner of the run itself; undefined when none does. */
export async function liveRunner(request: ShardWorkerRequest, runId: string): Promise<string | undefined> {
  const name = ownLeaseName(runId);
  const held = await leaseState(request.store, name);
  const record = held?.record;
  if (!record || record.kind === 'release' || record.parked === true || request.clock.now() > record.expiresAt)
    return undefined;
  return `${holderText(record.holder)}, whose lease ${name} is renewed until ${new Date(record.expiresAt).toISOString()}`;
}

/** A site's run the store holds as ended (its last run's finish recorded): its report, and the site's end as the worker records it. */
export function endedRun(
  request: ShardWorkerRequest,
  stored: Pick<StoredRun, 'path' | 'runId' | 'replica'>,
  lease: HeldLease,
): { report: SiteReport['report']; outcome: string; end: SiteEnd } | undefined {
  const text = readFileSync(stored.path, 'utf8');
  const key = journalKey(request.env);
  // Laid from the store: a record refused is the store's (its segment named), no file a worker kept.
  const ways = storedWays(stored.replica.at);
  if (!readJournal(text, `run ${stored.runId}`, key, ways).finished) return undefined;
  const name = `${request.store.url} run ${stored.runId}`;
  const report = shardedHints(journalReport(text, name, key, undefined, ways), stored.runId, true);
  // Cut short (interrupted, its lease lost: a step cancelled), its finish says it stopped, not ended: it is resumed.
  // One fail-fast cancelled after a failure ended with it (resumed, the failed write would be sent
  // again); a window's park did not (its write waits, for the run that goes on).
  if (
    report.outcome === 'cancelled' ||
    report.steps.some((s) => s.outcome === 'cancelled' && s.error?.code !== 'FAIL_FAST')
  )
    return undefined;
  const held = { ...report, lease: maskLease(request.masker, lease.summary()) };
  // A write left in doubt and not decided fails the site, whatever continue-on-error let pass (as runSite's end says).
  const doubts = undecidedDoubts(report.steps);
  if (report.outcome === 'success' && doubts.length === 0)
    return { report: held, outcome: 'success', end: { outcome: 'success' } };
  const failed = doubts[0] ?? report.steps.find((s) => s.outcome === 'failure');
  return {
    report: { ...held, outcome: 'failure' },
    outcome: 'failure',
    end: {
      outcome: 'failure',
      detail: failed ? `${failed.name}: ${failed.error?.message ?? failed.outcome}` : undefined,
    },
  };
}

/**
 * The window a site's run the store holds parked for (its last run's park, `for: window`): the
 * opening it waits for, since when, whether a call of it is in doubt, and whether it was gone on
 * with since the park (a call left after it, on the run's clock: a continue that died under way).
 */
export function windowParked(
  request: ShardWorkerRequest,
  stored: Pick<StoredRun, 'path' | 'runId' | 'replica'>,
): { until: number; since: number; inDoubt: boolean; wentOn: boolean; state: JournalState } | undefined {
  const text = readFileSync(stored.path, 'utf8');
  const state = readJournal(text, `run ${stored.runId}`, journalKey(request.env), storedWays(stored.replica.at));
  const park = state.parked?.park;
  if (park?.for !== 'window' || park.until === undefined) return undefined;
  // A continue of it killed after a write left still reads parked: it was under way, not "nothing
  // sent" (its call in doubt read back; a call answered since the park, gone on with to its end).
  const parkedAt = state.parked?.at ?? Infinity;
  const wentOn = [...state.instances.values()].some((i) => i.call !== undefined && i.call.at > parkedAt);
  return { until: park.until, since: park.since, inDoubt: inDoubtInstances(state).length > 0, wentOn, state };
}

/**
 * A site parked for its window when its wave's budget was spent, a call of it in doubt from before
 * its park (a retry its window refused): read back and said, and left parked whatever the verdict:
 * not under way when the rollout halted, none of its steps is sent in that wave, as one process's
 * rollout sends none. The doubt stays in its journal, for the operator (verify --store).
 */
export async function readBackLeftParked(
  request: ShardWorkerRequest,
  pipeline: Pipeline,
  where: { over: string; site: string; runId: string },
  window: { until: number; since: number; state: JournalState },
): Promise<SiteEnd> {
  const verified = await verifyJournal(window.state, {
    pipeline,
    env: request.env,
    masker: request.masker,
    signal: request.signal,
    now: () => request.clock.now(),
  });
  for (const v of verified) request.say(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`);
  const calls =
    verified.length === 1
      ? 'its call in doubt from before its park was'
      : `its ${verified.length} calls in doubt from before its park were`;
  return leftParked(
    request,
    where,
    window,
    `${calls} read back (${[...new Set(verified.map((v) => v.verdict.replace('-', ' ')))].join(', ')}): not gone on with, nothing sent`,
  );
}

/** A site's run left parked for its window in a wave past its budget, nothing sent (`why`, in words): said, and the site's end. */
export function leftParked(
  request: ShardWorkerRequest,
  where: { over: string; site: string; runId: string },
  window: { until: number; since: number },
  why: string,
): SiteEnd {
  request.say(
    `${where.over} ${where.site}: its run ${where.runId} waits for its window, and its wave's failures passed its budget: ${why} (the rollout halts at its wave)`,
  );
  return { outcome: 'parked', window: { until: window.until, since: window.since } };
}

/**
 * A site whose verify could not tell whether a call was applied (it fails, in doubt, for the
 * operator): its steps, for this worker's reports, as the store holds them. A journal that cannot
 * be read is said with what to do, in the store's words (storedWays): its steps are missing.
 */
export function unsettledReport(
  request: ShardWorkerRequest,
  stored: Pick<StoredRun, 'path' | 'runId' | 'replica'>,
  lease: HeldLease,
  where: { over: string; site: string },
  reports: SiteReport[],
): void {
  try {
    const text = readFileSync(stored.path, 'utf8');
    const name = `${request.store.url} run ${stored.runId}`;
    const report = journalReport(text, name, journalKey(request.env), undefined, storedWays(stored.replica.at));
    // Read back under this worker's lease (a takeover's), not the one the journal's run held: the
    // lease this worker's report (and report --merge of its file) says it held is its own.
    const held = maskLease(request.masker, lease.summary());
    reports.push({
      site: where.site,
      siteRun: stored.runId,
      report: { ...shardedHints(report, stored.runId, true), lease: held },
    });
  } catch (unread) {
    // The site still fails for the operator; only its steps are missing from this worker's reports.
    request.logger.warn(
      undefined,
      `${where.over} ${where.site}: its steps could not be read back for this worker's reports (${passedOver(unread)}); the merged report reads them from the store`,
    );
  }
}
