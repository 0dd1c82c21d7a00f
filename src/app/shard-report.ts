// Longer than 250 lines: the merged reading of a sharded run from its store (each site as it stands, and the wave it stands at: ended, under way, parked or stopped) is one pass, read whole.
// One result of a sharded run (report --merge --store URL --run ID): the manifest names every site;
// each site's report is rendered from its run's journal in the store (the run its terminal record
// names, else the run its latest owner started: a site cut short shows its calls in doubt); a site
// no worker started is "no report" (unless the rollout halted before it, or waits at an earlier
// wave's barrier: its `rollout`, from the waves' verdicts, says where and why), and so is each
// shard no attempt registered. Read while a worker is alive, what is under way is told as under
// way (shard-under-way.ts), not as cut short or "no report".
import { earlierAbort, haltIfAborted, rolloutOf, standsAt } from './shard-rollout.ts';
import { fleetOptions, placeInWaves } from './shard-plan.ts';
import { reportParked, type Report } from '../report/model.ts';
import type { StepError } from '../runner/instance.ts';
import { matrixOf, readPlanned } from './shard-instances.ts';
import { asUnderWay, beyondError, holderOf, liveWorkers, waitingError, willStart } from './shard-under-way.ts';
import { listedSteps, notStarted } from './shard-listed.ts';
import { readSite, SITES_AT_ONCE, storedSiteReport } from './shard-site-read.ts';
import { analysisRounds } from './shard-rounds.ts';
import { barrierPark, windowsPark, windowWaitOf } from './shard-barrier.ts';
import { windowReason, type WindowWait } from '../shard/barrier-reason.ts';
import { mergeReports, type ReportShard } from '../report/merge.ts';
import { readManifest, shardKeys, type Manifest } from '../shard/manifest.ts';
import { overBudget, readVerdicts } from '../shard/verdict.ts';
import { WaveLog } from '../shard/wave-log.ts';
import { readAhead } from '../store/read-ahead.ts';
import { sequenceKey, type RunStore } from '../store/store.ts';

export interface ShardedReport {
  report: Report;
  /** Shards (1-based) no worker attempt registered. */
  missingShards: number[];
  sites: number;
  /** The manifest it was read by (runs --store lists its name, file and shards from it). */
  manifest: Manifest;
}

/** `now`: the reader's clock, against which a worker's lease is read as held or lapsed. */
export async function shardedReport(
  store: RunStore,
  run: string,
  key: string | undefined,
  now: number,
): Promise<ShardedReport> {
  const manifest = await readManifest(store, run);
  const shards: ReportShard[] = [];
  const verdicts = await readVerdicts(store, manifest);
  const rollout = rolloutOf(manifest, verdicts);
  // A worker alive (its lease held, not lapsed) while the rollout stands at a wave: the run is under way.
  const live = await liveWorkers(store, manifest, now);
  // The operator's abort of the wave it stands at: halted there once nothing of it runs (its verdict may not be written).
  // Each wave's log, read once: a read again reads only what was appended since.
  const logs = manifest.waves.map((_, w) => new WaveLog(store, run, w + 1));
  await earlierAbort(verdicts, (wave) => logs[wave - 1]!, rollout);
  await haltIfAborted(manifest, logs, verdicts, rollout, live.size > 0);
  // Not halted, the first wave without a verdict is where the rollout stands: no later wave has started.
  const standing = rollout.halted ? -1 : verdicts.findIndex((v) => v === undefined);
  const alive = standing >= 0 && live.size > 0;
  // The instances shard planned (none for a run sharded by an earlier version): the fleet's matrix in its order, and what a halt, a park or a run under way left.
  const planned = await readPlanned(store, run);
  const running: string[] = [];
  // The sites held by a worker that waits for their windows (none running meanwhile).
  const sleepers: WindowWait[] = [];
  // The sites of a run under way with no step of their own yet, listed from the planned instances: not started yet, or held with no step recorded.
  const waiting: { site: string; wave: number; error: StepError; never: boolean }[] = [];
  // The wave it stands at, once its failures passed its budget: no site of it or after it will start.
  let spentAt: { wave: number; budget: number } | undefined;
  // The sites a report is owed for: every site, but once the rollout halted only those that
  // started; and when the wave it stands at ended everywhere (every site's terminal record read;
  // one not yet written counts as not ended), the later waves' only once started.
  const owed: string[] = [];
  // The sites a halt (or the wave the rollout waits at) left not started, with their wave: listed as one process lists them.
  const unstarted: { site: string; wave: number }[] = [];
  // The sites of waves the rollout has not reached, its workers gone mid-wave: not started.
  const beyond: { site: string; wave: number; error: StepError }[] = [];
  // The sites of the wave it stands at that no worker started once its budget was spent, none alive.
  const spentLeft: { site: string; wave: number }[] = [];
  // Whether every site of the wave the rollout stands at has its end, the latest of them, and those that failed.
  let standingEnded = standing >= 0;
  // The sites of that wave not ended that no worker alive holds or will start, a worker alive.
  const orphans: string[] = [];
  // The sites of that wave whose worker is gone, that a worker alive will take over.
  const takeovers: string[] = [];
  let lastEnd = 0;
  const failed: string[] = [];
  // The sites of the wave it stands at not ended, and those of them whose run parked for its window.
  const notEnded: string[] = [];
  const windows: WindowWait[] = [];
  for (let w = 0; w < manifest.waves.length; w++) {
    const log = await logs[w]!.read();
    // The wave it stands at is read before any later one: standingEnded is known here.
    const after = rollout.halted ? true : standingEnded && w > standing;
    const budget = manifest.budgets[w]!;
    if (w === standing && log.failed.size > budget) spentAt = { wave: w + 1, budget };
    // The sites of the wave whose record and journal are read, in its order.
    const reads: string[] = [];
    for (const site of manifest.waves[w]!) {
      const owner = log.owners.get(site);
      if (after && !owner) {
        unstarted.push({ site, wave: w + 1 });
        continue;
      }
      // No worker started it, and none is alive to (of a run that planned its instances).
      const left = !alive && planned && !owner;
      // A wave the rollout has not reached (the one it stands at not ended, no worker alive): its
      // sites have not started, for no job died holding them; listed so, not "no report".
      if (left && w > standing && standing >= 0) {
        beyond.push({ site, wave: w + 1, error: beyondError(standing + 1, spentAt) });
        continue;
      }
      // Past its budget, a site of the wave no worker started never will: it does not hold the
      // wave's end; with no worker alive, it is left by the halt to come (or listed so).
      if (left && w === standing && spentAt) {
        spentLeft.push({ site, wave: w + 1 });
        continue;
      }
      reads.push(site);
    }
    // Each site's terminal record, then the journal of the run it names (else its owner's), read
    // SITES_AT_ONCE ahead of the one taken here, in the wave's order.
    const read = readAhead(reads, (site) => readSite(store, run, site, log.owners.get(site)?.siteRun), SITES_AT_ONCE);
    for (const [i, site] of reads.entries()) {
      const owner = log.owners.get(site);
      const { terminal, segments } = await read(i);
      if (w === standing && terminal) {
        lastEnd = Math.max(lastEnd, terminal.at);
        if (terminal.outcome === 'failure') failed.push(site);
      } else if (w === standing) {
        standingEnded = false;
        notEnded.push(site);
        // Its failure in the wave's log, its terminal record not written yet (its worker killed between): it counts.
        if (log.failed.has(site)) failed.push(site);
      }
      const siteRun = terminal?.siteRun ?? owner?.siteRun;
      // Not ended, the attempt that owns it alive: running, as it stands.
      const held = alive && !terminal ? holderOf(site, log, live, manifest) : undefined;
      // Not ended (nor its end in the wave's log), no worker alive holding it: one alive will take it
      // over (its own worker gone: a queue's, or its shard's next attempt) or none will, and the wave
      // waits for its shard to run again; past the budget, a site no worker started never holds the wave.
      if (alive && w === standing && !terminal && !held && !log.ended.has(site) && (owner || !spentAt)) {
        if (!willStart(site, w, standing, live, manifest)) orphans.push(site);
        else if (owner) takeovers.push(site);
      }
      const stored = segments?.text ? segments : undefined;
      if (!stored) {
        // No step of it in the store: under way, one a worker alive holds or will start is listed, not "no report".
        if (alive && planned && (held || (!owner && willStart(site, w, standing, live, manifest)))) {
          const never = held ? undefined : spentAt;
          waiting.push({ site, wave: w + 1, error: waitingError(site, standing + 1, held, never), never: !!never });
          if (held) running.push(site);
        } else owed.push(site);
        continue;
      }
      owed.push(site);
      // Ended: its terminal record read, or its end in the wave's log (the record still being written).
      const ended = terminal !== undefined || log.ended.has(site);
      // Ended with a write in doubt no one decided, or cut short: failed in its wave (shard-site-read.ts).
      const { report } = storedSiteReport(stored, store, siteRun!, key, ended, rollout.halted !== null);
      if (w === standing && !terminal && !held) windows.push(...windowWaitOf(site, report, log));
      // Held, its run parked for a window that has not opened on the reader's clock: its worker
      // waits for it (nothing of it is sent before it opens), the site is not running.
      const sleeping = held ? windowWaitOf(site, report, log).filter((x) => now < x.until) : [];
      if (sleeping.length > 0) sleepers.push(...sleeping);
      else if (held) running.push(site);
      shards.push({
        source: `${manifest.over} ${site}: run ${siteRun!}`,
        report: held ? asUnderWay(report, site, held, sleeping[0]?.until) : report,
        underWay: held && { shard: held.shard, of: held.of, until: new Date(held.until).toISOString() },
      });
    }
  }
  // Left by the halt to come once the wave ended; else (a started site of it has no end, no worker
  // alive) not started either, as the wave's sites no worker will start.
  if (standingEnded) unstarted.push(...spentLeft);
  else beyond.push(...spentLeft.map((u) => ({ ...u, error: beyondError(standing + 1, spentAt) })));
  // The wave it stands at has no verdict: its failures are those its sites' ends record.
  if (standing >= 0) rollout.waves[standing]!.failed = failed;
  // Every site of it not ended waits for its window, no worker alive: the rollout waits there, parked
  // (the later waves' sites not started, as a park leaves them), not stopped.
  const parkedSites = !alive && !spentAt ? windowsPark(manifest, standing + 1, notEnded, windows) : undefined;
  if (parkedSites) {
    standsAt(rollout, standing + 1, 'parked').failed = failed;
    rollout.parked = parkedSites;
    unstarted.push(...beyond.splice(0).map(({ site, wave }) => ({ site, wave })));
  }
  const missingShards: number[] = [];
  // None listed: its first attempt's key read by name too (a listing may lag the keys just created).
  const started = async (at: string) =>
    (await store.list(at)).length > 0 || (await store.get(`${at}${sequenceKey(1)}`)) !== undefined;
  for (let i = 0; i < manifest.shards; i++) if (!(await started(shardKeys(run).workers(i)))) missingShards.push(i + 1);
  // Every site of the wave it stands at ended, no verdict yet: past its budget, the verdict to come
  // halts the rollout (said so); within it, the rollout waits at the barrier, as a parked run does.
  // A worker still alive then (its analysis running, or waiting at the barrier) goes on by itself: the
  // run is under way, waiting for what the park would name; with none alive, it is parked.
  let waitingFor: string | null = null;
  if (standingEnded) {
    const budget = manifest.budgets[standing]!;
    const park =
      failed.length > budget
        ? undefined
        : await barrierPark(store, run, manifest, standing + 1, lastEnd, failed.length);
    if (park && alive) {
      waitingFor = park.reason;
      if (planned) {
        waiting.push(
          ...unstarted.map((u) => ({
            ...u,
            error: waitingError(u.site, standing + 1, undefined, undefined),
            never: false,
          })),
        );
        unstarted.length = 0;
      }
    } else {
      standsAt(rollout, standing + 1, park ? 'parked' : 'halted').failed = failed;
      if (park) rollout.parked = park;
      else
        rollout.halted = {
          wave: standing + 1,
          reason: `${overBudget(manifest.over, failed, budget)} (the wave's verdict not yet written)`,
          aborted: null,
        };
    }
  }
  // A worker alive, nothing of the wave running: it waits at the barrier for sites only their shards' next workers run.
  if (alive && !standingEnded && running.length === 0)
    if (orphans.length > 0)
      waitingFor = `the ${manifest.over}s of wave ${standing + 1} that no worker running holds: ${orphans.join(', ')} (run their shards)`;
    else if (takeovers.length > 0)
      waitingFor = `a worker to take over the ${manifest.over}s of wave ${standing + 1} whose worker is gone: ${takeovers.join(', ')} (once their leases lapsed)`;
    else if (sleepers.length > 0) waitingFor = windowReason(manifest.over, sleepers);
  const fleet = fleetOptions(manifest, owed);
  const report = mergeReports(shards, {
    ...fleet,
    matrix: planned ? matrixOf(planned) : fleet.matrix,
    listed: planned
      ? [
          ...notStarted(planned, manifest, rollout, unstarted),
          ...listedSteps(planned, manifest.over, waiting),
          ...listedSteps(planned, manifest.over, beyond),
        ]
      : [],
    after: await analysisRounds(store, run, verdicts),
    // No site has a step in the store yet: the run as planned, each site as it stands (held, not started, or no report).
    empty: { pipeline: { name: manifest.name, file: manifest.file, sha256: manifest.sha256 }, startedAt: manifest.at },
  });
  placeInWaves(report.steps, manifest);
  // Where the rollout stopped and why, from the waves' verdicts (a merged report of jobs has no rollout of its own).
  report.rollout = rollout;
  if (rollout.halted) report.outcome = 'failure';
  // Cut mid-wave, no worker running it: the rollout did not end, whatever ran succeeded; the
  // waves after the one it stands at are not started (and, past its budget, the sites of it no
  // worker started).
  if (standing >= 0 && !standingEnded && !alive && !parkedSites) {
    report.outcome = 'failure';
    // No site started at all (a run just planned): it did not stop, it never began (report/fleet-lines.ts says so).
    if (shards.length > 0) rollout.stopped = standing + 1;
    for (const w of rollout.waves) if (w.wave > standing + 1) w.outcome = 'not-started';
  }
  if ((running.length > 0 || sleepers.length > 0 || waiting.length > 0 || waitingFor !== null) && report.merged) {
    // Read under way, the report is not the run's result: it says what ran and what is under way.
    report.outcome = 'under-way';
    report.merged.underWay = {
      at: new Date(now).toISOString(),
      wave: standing + 1,
      sites: running,
      notStarted: waiting.filter((x) => !x.never && !running.includes(x.site)).map((x) => x.site),
      waitingFor,
    };
    standsAt(rollout, standing + 1, 'under-way').failed = failed;
  }
  if (rollout.parked) report.parked = reportParked(rollout.parked);
  if (missingShards.length && report.merged) {
    // Under way, a shard's worker may still start: the run's outcome is told once it ended.
    const yet = report.outcome === 'under-way' ? ' yet' : '';
    report.merged.noReport.push(...missingShards.map((i) => `shard ${i}/${manifest.shards} (no worker started${yet})`));
    if (!yet) report.outcome = 'failure';
  }
  return { report, missingShards, sites: manifest.waves.flat().length, manifest };
}
