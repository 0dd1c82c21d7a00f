// A worker of a sharded run (run --shard I/N --run RUN), composed: the manifest read and checked,
// the attempt registered, the worker's lease taken (a live earlier attempt of its index waited
// for, an expired one taken over) and renewed, then shard/worker.ts walks the waves with each
// site run as a stored run of its own (its journal in the store, fenced by the worker's lease;
// a site taken over resumed with verify-and-retry), the analysis between waves run by whoever is
// elected (shard-analysis.ts), and the worker's report merged from the sites it ran.
import { hostname } from 'node:os';
import { actorOf, runUrlOf } from '../ci/facts.ts';
import { UsageError } from '../errors.ts';
import { newRunId } from '../journal/replica.ts';
import type { Report } from '../report/model.ts';
import { barrierParkOf, workerReport, WorkerStopped, type SiteReport } from './shard-worker-report.ts';
import { earlierReports, endedEarlier, type EndedEarlier } from './shard-earlier.ts';
import { journalKey } from '../journal/seal.ts';
import { prepareRun } from '../runner/scope.ts';
import { runWorker, type WorkerEnd, type WorkerResult } from '../shard/worker.ts';
import { readVerdicts } from '../shard/verdict.ts';
import { earlierAbort, rolloutOf, standsAt } from './shard-rollout.ts';
import { checkFleet, fleetOf } from './shard-plan.ts';
import { readManifest, shardKeys, shardOf, workerLease, workerLeaseWords, type Manifest } from '../shard/manifest.ts';
import { notShardedRun, WORKER_HINTS } from './not-sharded.ts';
import { acquireLease, LeaseError } from '../store/lease.ts';
import { formatDuration } from '../duration.ts';
import { sequenceKey, type RunStore } from '../store/store.ts';
import { runSite } from './shard-site.ts';
import { goneCheck } from './shard-gone.ts';
import type { ShardWorkerRequest } from './shard-request.ts';
import { analyse } from './shard-analysis.ts';
import { siteServerClock } from './shard-bake-clock.ts';
import { WaveLog } from '../shard/wave-log.ts';

export interface ShardWorkerDone {
  manifest: Manifest;
  result: WorkerResult;
  /** The worker's report: the sites it ran, merged; which worker it is, how it ended. */
  report: Report;
  /** The sites it may start (static), or undefined (queue: it claims them). */
  owns: string[] | undefined;
  /**
   * The sites an earlier attempt of this index ended (before it parked, was stopped, lost its lease
   * or was killed), which this one did not run: its reports hold them; one that failed, the index's
   * last job says so too (exit 1), not only the attempt that ran it.
   */
  endedEarlier: EndedEarlier[];
}

/** Refuses an index out of range, or a total other than the manifest's (--shard auto: in the engine's terms). */
function checkIndex(manifest: Manifest, { index, total, misfit }: ShardWorkerRequest): void {
  const engine = misfit?.(manifest.run, manifest.shards);
  if (engine) throw refused(engine.message, engine.hint);
  if (total !== undefined && total !== manifest.shards)
    throw refused(
      `run ${manifest.run} has ${manifest.shards} shards, this worker was told ${total}`,
      'start as many workers as enginectl shard --shards said (its fan-out lines)',
    );
  if (!Number.isInteger(index) || index < 0 || index >= manifest.shards)
    throw refused(
      `shard index ${index + 1} is out of range: run ${manifest.run} has shards 1 to ${manifest.shards}`,
      'give --shard I/N with 1 <= I <= N, or --shard auto under GitLab parallel: or a Kubernetes Indexed Job',
    );
}

/**
 * Registers this attempt of an index as the next after those listed; when another attempt of it
 * registered that number meanwhile (two started together), as the one after: every attempt is
 * registered under a number of its own, which its report gives. Returns that number, from 1.
 */
async function register(store: RunStore, prefix: string, entry: object): Promise<number> {
  const body = Buffer.from(JSON.stringify(entry));
  let attempt = (await store.list(prefix)).length + 1;
  while (!(await store.create(`${prefix}${sequenceKey(attempt)}`, body))) attempt++;
  return attempt;
}

const refused = (message: string, hint: string) => new UsageError('SHARD_REFUSED', message, { hint });

export async function runShardWorker(request: ShardWorkerRequest): Promise<ShardWorkerDone> {
  const { store, clock } = request;
  const manifest = await readManifest(store, request.run).catch((e: unknown) =>
    notShardedRun(store, request.run, e, WORKER_HINTS),
  );
  checkIndex(manifest, request);
  checkFleet(
    manifest,
    fleetOf(request.pipeline, request.sources, request.vars, request.env),
    request.pipeline,
    request.env,
  );
  const holder = newRunId(clock.now());
  // Registered before anything else: a shard no attempt registered is missing from the merged report.
  const attempt = await register(store, shardKeys(manifest.run).workers(request.index), {
    holder,
    actor: actorOf(request.env),
    host: hostname(),
    at: clock.now(),
  });
  // An earlier attempt of this index still alive is waited for, up to its ttl and a heartbeat, and
  // never past what is left of this job's --shard-wait (a wait of the job's, counted in it); expired, taken over.
  const aliveFor = request.ttlMs + Math.floor(request.ttlMs / 3);
  const waitMs = Math.min(aliveFor, request.waitBudget.left());
  const lease = await request.waitBudget
    .waiting(() => takeWorkerLease(request, manifest, holder, waitMs))
    .catch((error: unknown) => {
      if (!(error instanceof LeaseError) || error.code !== 'LEASE_HELD' || waitMs >= aliveFor) throw error;
      const spent = `${error.message} (this job's --shard-wait ${formatDuration(request.waitBudget.limitMs)} spent)`;
      throw new LeaseError('LEASE_HELD', spent, { hint: error.hint, cause: error });
    });
  const heartbeat = setInterval(
    () => void lease.renew().catch(() => undefined),
    Math.max(1_000, Math.floor(request.ttlMs / 3)),
  );
  heartbeat.unref();
  const owns =
    manifest.assign === 'static'
      ? manifest.waves.flat().filter((s) => shardOfSite(manifest, s) === request.index)
      : undefined;
  request.say(
    `shard ${request.index + 1}/${manifest.shards} of run ${manifest.run}: ${owns ? `owns ${owns.length} ${manifest.over}(s)${owns.length ? `: ${list(owns)}` : ''}` : `claims ${manifest.over}s from each wave's queue`}`,
  );
  const reports: SiteReport[] = [];
  const startedAt = clock.now();
  const watch = request.stopwatch ?? clock.now;
  const started = watch();
  let sent = false;
  // The sites its index's earlier attempts ended, as they recorded them: read at its end.
  const earlier: SiteReport[] = [];
  const reportOf = (result: WorkerResult) =>
    workerReport({
      manifest,
      index: request.index,
      pipeline: { name: prepareRun(request.pipeline, request.env, request.masker).name, file: request.pipeline.file },
      result,
      attempt,
      sites: reports,
      earlier,
      startedAt,
      durationMs: watch() - started,
    });
  try {
    const result = await runWorker({
      store,
      manifest,
      index: request.index,
      holder,
      now: clock.now,
      sleep: clock.sleep,
      latest: clock.latest,
      signal: request.signal,
      pollMs: request.pollMs,
      waitBudget: request.waitBudget,
      newRunId: () => newRunId(clock.now()),
      say: request.say,
      isGone: goneCheck(request, manifest, holder),
      runSite: (site, wave, siteRun) => (
        (sent = true),
        request.onStart?.(),
        runSite(request, manifest, lease, site, siteRun, reports)
      ),
      serverClock: (sites) => siteServerClock(request, manifest, sites),
      analyse: (wave, passed, since, clock) => analyse(request, manifest, wave, passed, { since, clock }, holder),
    }).catch((fault: unknown) => {
      // A fault after a site started: the sites it ran are reported all the same (cut short), then the fault is said.
      if (!sent) throw fault;
      const ran = reports.map((r) => ({
        site: r.site,
        siteRun: r.siteRun,
        wave: 1 + manifest.waves.findIndex((w) => w.includes(r.site)),
        outcome: r.report.outcome === 'success' ? ('success' as const) : ('failure' as const),
      }));
      throw new WorkerStopped(fault, reportOf({ end: { outcome: 'cancelled' }, ran, started: true }));
    });
    const report = reportOf(result);
    // Unread (its store failed), its reports are written all the same, cut short: not a success it cannot know.
    const cut = () => reportOf({ ...result, end: { outcome: 'cancelled' } });
    report.rollout = await rolloutAtEnd(store, manifest, result.end).catch((fault: unknown) => {
      throw new WorkerStopped(fault, cut(), 'where the rollout stands at its end could not be read from the store');
    });
    if (attempt === 1) return { manifest, result, report, owns, endedEarlier: [] };
    const ended = await endedEarlier(store, manifest, request.index, result, () => ({
      ...cut(),
      rollout: report.rollout,
    }));
    const warn = (m: string) => request.logger.warn(undefined, request.masker.mask(m));
    earlier.push(...(await earlierReports(store, manifest, ended, journalKey(request.env), warn)));
    // Its report made again, those sites in it; its exit says a site of its index failed: so do its reports.
    const whole = { ...reportOf(result), rollout: report.rollout };
    if (ended.some((e) => e.outcome === 'failure') && whole.outcome === 'success') whole.outcome = 'failure';
    return { manifest, result, report: whole, owns, endedEarlier: ended };
  } finally {
    clearInterval(heartbeat);
    // A release that fails leaves the lease held until its ttl (the index's next attempt waits for
    // it): a warning, as a run says of its lease (lease-setup.ts); the worker's outcome is its sites'.
    await lease
      .release()
      .catch((error: unknown) => request.logger.warn(undefined, request.masker.mask(lease.releaseFailed(error))));
  }
}

const list = (vs: string[]) =>
  vs.length > 8 ? `${vs.slice(0, 8).join(', ')} and ${vs.length - 8} more` : vs.join(', ');

const shardOfSite = (m: Manifest, site: string) => shardOf(site, m.shards);

/**
 * The rollout as the store's verdicts stood at the worker's end, for its report (report --merge of
 * the workers' files tells the rollout from the one that knew the most): where it halted, or the
 * wave a parked worker waits at. A verdict or a log not there is a wave not decided or not begun;
 * a store that fails at the read is its error (the caller writes the reports cut short, then says
 * it): never a wave read as having no failure.
 */
async function rolloutAtEnd(store: RunStore, manifest: Manifest, end: WorkerEnd): Promise<Report['rollout']> {
  const verdicts = await readVerdicts(store, manifest);
  const rollout = rolloutOf(manifest, verdicts);
  await earlierAbort(verdicts, (wave) => new WaveLog(store, manifest.run, wave), rollout);
  // Parked, or halted before the wave's verdict (its budget spent): the wave as this worker left it,
  // its failures those its log records.
  if ((end.outcome === 'parked' || end.outcome === 'halted') && !rollout.halted) {
    const log = await new WaveLog(store, manifest.run, end.wave).read();
    const failed = manifest.waves[end.wave - 1]!.filter((s) => log.failed.has(s));
    if (end.outcome === 'parked') rollout.parked = barrierParkOf(end, manifest.over);
    else rollout.halted = { wave: end.wave, reason: end.reason, aborted: end.aborted };
    standsAt(rollout, end.wave, end.outcome).failed = failed;
  }
  return rollout;
}

/** This index's worker lease, taken as `holder`: queued up to `waitMs` behind a live earlier attempt of the index. */
const takeWorkerLease = (request: ShardWorkerRequest, manifest: Manifest, holder: string, waitMs: number) =>
  acquireLease(request.store, workerLease(manifest.run, request.index), {
    holder: {
      runId: holder,
      actor: actorOf(request.env),
      host: hostname(),
      ...(runUrlOf(request.env) ? { ciRunUrl: runUrlOf(request.env)! } : {}),
    },
    ttlMs: request.ttlMs,
    waitMs,
    clock: request.clock,
    signal: request.signal,
    verifyTakeover: async () => ({
      evidence: [`the sites it left are resumed from their journals, verify deciding their calls in doubt`],
    }),
    onWait: (m) => request.say(m),
    called: workerLeaseWords(manifest.run, request.index, manifest.shards),
  });
