// What merging the reports of a sharded run's workers (run --shard I/N --report-json F) adds to a
// fleet's merge: with --expect-shards N, every report must be a worker's of one run planned with N
// shards, and each shard no report is from is named ("shard 3/8"), which fails the fleet; and a
// site two reports hold, because a worker left it (its lease lapsed, or it was interrupted) and
// another attempt resumed it, is the resuming attempt's: the report that left it is superseded. A
// retried worker's report holds the sites its index's earlier attempts ended (shard.endedEarlier):
// the report of the attempt that ran one, when given, keeps it; the worker's lease is the one its
// own sites ran under.
// The rollout is the one the worker that knew the most told (the waves' verdicts at its end): the
// sites it halted or stands before are not started, not "no report".
import { UsageError } from '../errors.ts';
import type { Report, ReportStep } from './model.ts';
import { barrierParkWithout } from '../shard/barrier-reason.ts';
import { shardOf } from '../shard/manifest.ts';

interface Source {
  source: string;
  report: Report;
}

/**
 * Refuses workers' reports of two sharded runs (each report names its run): their merge is no run's
 * result, with --expect-shards or without (a stale worker's report among a run's artifacts).
 */
function refuseTwoShardRuns(shards: readonly Source[], flag: string): void {
  const first = shards.find((s) => s.report.shard);
  const other = shards.find((s) => s.report.shard && s.report.shard.run !== first!.report.shard!.run);
  if (!first || !other) return;
  throw new UsageError(
    'MERGE_MISMATCH',
    `${flag}: ${other.source} is a worker's of run ${other.report.shard!.run}, ${first.source} of run ${first.report.shard!.run}`,
    { hint: "merge the reports of one sharded run (one --run ID): leave out the other run's" },
  );
}

/**
 * The shards (as "shard I/N") no report is from, with --expect-shards N; refuses workers' reports
 * of two runs, and with N a report that is not a worker's of the same run of N shards.
 */
export function missingShards(shards: readonly Source[], expect: number | undefined, merging: string): string[] {
  refuseTwoShardRuns(shards, merging);
  if (expect === undefined) return [];
  for (const { source, report } of shards) {
    const shard = report.shard;
    if (!shard)
      throw new UsageError(
        'MERGE_MISMATCH',
        `report --merge --expect-shards: ${source} is not the report of a sharded run's worker (run --shard I/N)`,
        {
          hint: 'merge the JSON reports each worker wrote (run --shard I/N --report-json F), or leave out --expect-shards',
        },
      );
    if (shard.of !== expect)
      throw new UsageError(
        'MERGE_MISMATCH',
        `report --merge --expect-shards ${expect}: ${source} is shard ${shard.index}/${shard.of}: run ${shard.run} was planned with ${shard.of} shards`,
        { hint: `give --expect-shards ${shard.of}, as enginectl shard --shards said` },
      );
  }
  const seen = new Set(shards.map((s) => s.report.shard!.index));
  const missing: string[] = [];
  for (let i = 1; i <= expect; i++) if (!seen.has(i)) missing.push(`shard ${i}/${expect}`);
  return missing;
}

/** Whether a worker's report left this instance's site to another attempt (it started it and did not end it). */
export function leftBy(report: Report, step: ReportStep): boolean {
  const shard = report.shard;
  if (!shard || !step.matrix || !Object.hasOwn(step.matrix, shard.over)) return false;
  return shard.left.includes(String(step.matrix[shard.over]));
}

/** Whether a worker's report holds this instance's site as an earlier attempt of its index ended it (shard.endedEarlier). */
export function endedEarlierIn(report: Report, step: ReportStep): boolean {
  const shard = report.shard;
  if (!shard || !step.matrix || !Object.hasOwn(step.matrix, shard.over)) return false;
  return shard.endedEarlier.includes(String(step.matrix[shard.over]));
}

/** Waves decided by a verdict: how much of the rollout a worker's report knows. */
const decided = (rollout: NonNullable<Report['rollout']>) =>
  rollout.waves.filter((w) => w.outcome === 'done' || w.outcome === 'failed-within-budget' || w.outcome === 'halted')
    .length;

/** When a report was written: its run's end. */
const endOf = (report: Report) => Date.parse(report.startedAt) + report.durationMs;

/**
 * The rollout of a sharded run as its workers' reports tell it: the one that knows the most verdicts
 * (a halt or a park before none); a park at the barrier without the sites another report shows ended.
 */
export function shardRollout(shards: readonly Source[]): Report['rollout'] {
  let best: Source | undefined;
  for (const one of shards) {
    const r = one.report.shard ? one.report.rollout : null;
    if (!r) continue;
    const b = best?.report.rollout;
    if (!b || decided(r) > decided(b) || (decided(r) === decided(b) && parkedMore(one, best!))) best = one;
  }
  const rollout = best?.report.rollout ?? null;
  if (rollout?.parked?.for !== 'barrier') return rollout;
  const parked = barrierParkWithout(rollout.parked, endedSites(shards));
  return parked === rollout.parked ? rollout : { ...rollout, parked };
}

/**
 * At a tie of verdicts, whether `one`'s park tells more than `best`'s: a park before none, a bake's
 * (what the rollout waits for) before a worker's wait at the barrier, and of two alike the one
 * written last (it read the most of the wave ended).
 */
function parkedMore(one: Source, best: Source): boolean {
  const [r, b] = [one.report.rollout!.parked, best.report.rollout!.parked];
  if (!r) return false;
  if (!b) return true;
  if ((r.for === 'bake') !== (b.for === 'bake')) return r.for === 'bake';
  return endOf(one.report) > endOf(best.report);
}

/** The sites a worker's report shows ended: those it ran or resumed, less those it left to another attempt, and those its index's earlier attempts ended. */
function endedSites(shards: readonly Source[]): ReadonlySet<string> {
  const ended = new Set<string>();
  for (const { report } of shards)
    if (report.shard) {
      for (const site of report.shard.sites) if (!report.shard.left.includes(site)) ended.add(site);
      for (const site of report.shard.endedEarlier) ended.add(site);
    }
  return ended;
}

/**
 * Whether a site no report holds may have run in a worker attempt none of these reports is from:
 * an index with no report at all, or an earlier attempt of one killed before it wrote its file
 * (a later attempt's is here). With static assignment (every report says so) only its own shard's
 * attempts run a site; in a queue (or in reports of an earlier version, which do not say) any.
 */
function unseenRunner(shards: readonly Source[]): (site: string) => boolean {
  const workers = shards.flatMap(({ report }) => (report.shard ? [report.shard] : []));
  const of = workers[0]?.of ?? 0;
  const byIndex = new Map<number, Set<number>>();
  for (const w of workers) byIndex.set(w.index, (byIndex.get(w.index) ?? new Set()).add(w.attempt));
  const unseen = new Set<number>();
  for (let i = 1; i <= of; i++) {
    const seen = byIndex.get(i);
    if (!seen || seen.size < Math.max(...seen)) unseen.add(i);
  }
  if (unseen.size === 0) return () => false;
  if (!workers.every((w) => w.assign === 'static')) return () => true;
  return (site) => unseen.has(shardOf(site, of) + 1);
}

/**
 * The values no report is owed for, when no report holds them: those of the waves after the one a
 * rollout waits at, and once it halted, those of its halted wave too that provably never started:
 * the budget spent, no worker whose report is here started them, and no attempt whose report is
 * not here could have (unseenRunner). One that may have run is owed: "no report", not "not started".
 */
export function unstartedAfter(rollout: Report['rollout'], shards: readonly Source[]): ReadonlySet<string> {
  if (rollout?.halted) {
    const { wave } = rollout.halted;
    const mayHaveRun = unseenRunner(shards);
    return new Set(
      rollout.waves
        .filter((w) => w.wave >= wave)
        .flatMap((w) => (w.wave === wave ? w.values.filter((v) => !mayHaveRun(String(v))) : w.values)),
    );
  }
  const from = rollout?.parked ? rollout.parked.wave + 1 : undefined;
  return new Set(from === undefined ? [] : rollout!.waves.filter((w) => w.wave >= from).flatMap((w) => w.values));
}

/** What a worker's report is of, in words ("shard 3/8"); undefined for any other report. */
export const shardLabel = (report: Report): string | undefined =>
  report.shard ? `shard ${report.shard.index}/${report.shard.of}` : undefined;

/**
 * Whether a worker's attempt was cut short (its lease lapsed, or it was interrupted) and another
 * took up what it left: each site it left is held by another report's instances, and one it left
 * nothing in (cut at a barrier) was followed by a later attempt of its index. Such a report counts
 * for the fleet as what is kept of it, not as cancelled.
 */
export function supersededAttempt(
  one: Source,
  all: readonly Source[],
  kept: readonly { step: ReportStep; report: Report | undefined }[],
): boolean {
  const shard = one.report.shard;
  if (!shard || (shard.end !== 'lost' && shard.end !== 'cancelled')) return false;
  const heldElsewhere = new Set(
    kept.filter((k) => k.report !== one.report && k.step.matrix).map((k) => String(k.step.matrix![shard.over])),
  );
  if (shard.left.length > 0) return shard.left.every((site) => heldElsewhere.has(site));
  const started = Date.parse(one.report.startedAt);
  // A later attempt of its index: by its number, and by its start when the numbers are the same
  // (reports of an earlier version, without one, read as attempt 1 each).
  return all.some(
    (o) =>
      o.report.shard?.run === shard.run &&
      o.report.shard.index === shard.index &&
      (o.report.shard.attempt !== shard.attempt
        ? o.report.shard.attempt > shard.attempt
        : Date.parse(o.report.startedAt) > started),
  );
}

/**
 * A sharded run's worker's report (its sites merged, each run under the worker's lease) holds no
 * lease of its own: the lease its sites were run under, a takeover's first, so that merging the
 * workers' files (--expect-shards) keeps a takeover as merging from the store does.
 */
export function workerLease(report: Report): Report['lease'] {
  if (!report.shard) return null;
  // Not an earlier attempt's: the sites its index's earlier attempts ended ran under their lease.
  const leases = (report.merged?.reports ?? []).flatMap((r) => (r.lease && !r.endedEarlier ? [r.lease] : []));
  return leases.find((l) => l.takeover) ?? leases[0] ?? null;
}
