// Longer than 250 lines: a worker's wiring (its lease, each site's stored run, the analysis, its report) is one composition over the shard protocol.
// A worker of a sharded run (run --shard I/N --run RUN), composed: the manifest read and checked,
// the attempt registered, the worker's lease taken (a live earlier attempt of its index waited
// for, an expired one taken over) and renewed, then shard/worker.ts walks the waves with each
// site run as a stored run of its own (its journal in the store, fenced by the worker's lease;
// a site taken over resumed with verify-and-retry), the analysis between waves run by whoever is
// elected, and the worker's report merged from the sites it ran.
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { actorOf, runUrlOf } from '../ci/facts.ts';
import { EnginectlError, UsageError } from '../errors.ts';
import { formatDuration } from '../duration.ts';
import { newRunId } from '../journal/replica.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Report } from '../report/model.ts';
import { workerReport, type SiteReport } from './shard-worker-report.ts';
import { prepareRun } from '../runner/scope.ts';
import type { RunLogger } from '../runner/run-logger.ts';
import type { Masker } from '../runner/masker.ts';
import { runWorker, type SiteEnd, type WorkerResult } from '../shard/worker.ts';
import { checkFleet, fleetOf } from './shard-plan.ts';
import { readManifest, shardKeys, shardOf, workerLease, type Manifest } from '../shard/manifest.ts';
import { acquireLease, LeaseError, leaseState, type HeldLease } from '../store/lease.ts';
import { sequenceKey, type RunStore } from '../store/store.ts';
import type { Env } from '../environment.ts';
import type { Clock } from './clock.ts';
import type { Source } from './pipeline-input.ts';
import { openStoredRun } from './stored-run.ts';
import { setUpJournal } from './journal-setup.ts';
import { runAndReport } from './run.ts';
import { sitePipeline } from './site-pipeline.ts';
import { bakeOf } from '../runner/waves.ts';

export interface ShardWorkerRequest {
  store: RunStore;
  storeUrl: string;
  run: string;
  /** This worker's index, 0-based, and the total it was told (checked against the manifest). */
  index: number;
  total: number | undefined;
  pipeline: Pipeline;
  sources: readonly Source[];
  vars: Readonly<Record<string, unknown>>;
  env: Env;
  cwd: string;
  emulatorUrl?: string | undefined;
  masker: Masker;
  logger: RunLogger;
  signal: AbortSignal;
  clock: Clock;
  stopwatch?: (() => number) | undefined;
  /** How long it waits at a barrier before it parks; the longest it sleeps between reads of the store while waiting; its lease's ttl. */
  waitLimitMs: number;
  pollMs: number;
  ttlMs: number;
  say(line: string): void;
  /** Told as the worker starts (or resumes) its first site: from then on it may have sent something. */
  onStart?(): void;
}

export interface ShardWorkerDone {
  manifest: Manifest;
  result: WorkerResult;
  /** The worker's report: the sites it ran, merged; which worker it is, how it ended. */
  report: Report;
  /** The sites it may start (static), or undefined (queue: it claims them). */
  owns: string[] | undefined;
}

/** Refuses an index out of range, or a total other than the manifest's. */
function checkIndex(manifest: Manifest, index: number, total: number | undefined): void {
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

const refused = (message: string, hint: string) => new UsageError('SHARD_REFUSED', message, { hint });

export async function runShardWorker(request: ShardWorkerRequest): Promise<ShardWorkerDone> {
  const { store, clock } = request;
  const manifest = await readManifest(store, request.run);
  checkIndex(manifest, request.index, request.total);
  checkFleet(manifest, fleetOf(request.pipeline, request.sources, request.vars, request.env));
  const holder = newRunId(clock.now());
  // Registered before anything else: a shard no attempt registered is missing from the merged report.
  const attempts = await store.list(shardKeys(manifest.run).workers(request.index));
  await store.create(
    `${shardKeys(manifest.run).workers(request.index)}${sequenceKey(attempts.length + 1)}`,
    Buffer.from(JSON.stringify({ holder, actor: actorOf(request.env), host: hostname(), at: clock.now() })),
  );
  const lease = await acquireLease(store, workerLease(manifest.run, request.index), {
    holder: {
      runId: holder,
      actor: actorOf(request.env),
      host: hostname(),
      ...(runUrlOf(request.env) ? { ciRunUrl: runUrlOf(request.env)! } : {}),
    },
    ttlMs: request.ttlMs,
    // An earlier attempt of this index still alive is waited for, up to its ttl and a heartbeat; expired, taken over.
    waitMs: request.ttlMs + Math.floor(request.ttlMs / 3),
    clock,
    signal: request.signal,
    verifyTakeover: async () => ({
      evidence: [`the sites it left are resumed from their journals, verify deciding their calls in doubt`],
    }),
    onWait: (m) => request.say(m),
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
  try {
    const result = await runWorker({
      store,
      manifest,
      index: request.index,
      holder,
      now: clock.now,
      sleep: clock.sleep,
      signal: request.signal,
      pollMs: request.pollMs,
      waitLimitMs: request.waitLimitMs,
      newRunId: () => newRunId(clock.now()),
      say: request.say,
      isGone: goneCheck(store, manifest, clock, holder),
      runSite: (site, wave, siteRun) => (
        request.onStart?.(),
        runSite(request, manifest, lease, site, siteRun, reports)
      ),
      analyse: (wave, passed, since) => analyse(request, manifest, wave, passed, since),
    });
    const report = workerReport({
      manifest,
      index: request.index,
      pipeline: { name: prepareRun(request.pipeline, request.env, request.masker).name, file: request.pipeline.file },
      result,
      sites: reports,
      startedAt,
      durationMs: watch() - started,
    });
    return { manifest, result, report, owns };
  } finally {
    clearInterval(heartbeat);
    await lease.release().catch(() => undefined);
  }
}

const list = (vs: string[]) =>
  vs.length > 8 ? `${vs.slice(0, 8).join(', ')} and ${vs.length - 8} more` : vs.join(', ');

const shardOfSite = (m: Manifest, site: string) => shardOf(site, m.shards);

/**
 * Whether attempt `holder` of worker W is gone: its lease moved past it (released, taken, a new
 * attempt), or lapsed, which this worker then takes (the next key of its sequence) and gives back at
 * once, so that attempt sends nothing more. A live lease is trusted until its expiry, unread.
 */
function goneCheck(store: RunStore, manifest: Manifest, clock: Clock, me: string) {
  const aliveUntil = new Map<string, number>();
  return async (worker: number, holder: string): Promise<boolean> => {
    if ((aliveUntil.get(holder) ?? 0) > clock.now()) return false;
    const name = workerLease(manifest.run, worker);
    const state = await leaseState(store, name);
    if (!state || state.record.holder.runId !== holder || state.record.kind === 'release') return true;
    if (clock.now() <= state.record.expiresAt) {
      aliveUntil.set(holder, state.record.expiresAt);
      return false;
    }
    let taken: HeldLease;
    try {
      taken = await acquireLease(store, name, {
        holder: { runId: me, actor: 'enginectl', host: hostname() },
        ttlMs: 1_000,
        waitMs: 0,
        clock,
        verifyTakeover: async () => ({
          evidence: [`its sites are taken over by attempt ${me}, their journals resumed with verify`],
        }),
      });
    } catch (error) {
      if (error instanceof LeaseError) return false;
      throw error;
    }
    await taken.release().catch(() => undefined);
    return true;
  };
}

/** One site: a stored run of its own over the site's instances (a new run, or the resume of one taken over). */
async function runSite(
  request: ShardWorkerRequest,
  manifest: Manifest,
  lease: HeldLease,
  site: string,
  siteRun: { id: string; resume: boolean },
  reports: SiteReport[],
): Promise<SiteEnd> {
  const pipeline = sitePipeline(request.pipeline, manifest.over, site);
  const selection = { only: { [manifest.over]: [site] }, skip: {} };
  let resume = siteRun.resume;
  const now = request.clock.now();
  // A local copy of its own: an earlier attempt's file of the same run (on this machine) is never appended to.
  const local = () => join(tmpdir(), `enginectl-${siteRun.id}.${randomBytes(4).toString('hex')}.journal.jsonl`);
  const stored = await openStoredRun({
    url: request.storeUrl,
    resumeId: resume ? siteRun.id : undefined,
    newId: resume ? undefined : siteRun.id,
    journal: resume ? undefined : local(),
    cwd: request.cwd,
    env: request.env,
    tmpdir: tmpdir(),
    now,
  }).catch(async (error: unknown) => {
    // Taken over before its journal's first segment: nothing of it was sent (the journal is written ahead).
    if (!resume || !(error instanceof EnginectlError) || error.code !== 'STORE_REFUSED') throw error;
    resume = false;
    return openStoredRun({
      url: request.storeUrl,
      newId: siteRun.id,
      journal: local(),
      cwd: request.cwd,
      env: request.env,
      tmpdir: tmpdir(),
      now,
    });
  });
  let journal;
  try {
    journal = await setUpJournal({
      path: stored.path,
      resume,
      force: false,
      inDoubt: resume ? 'verify-and-retry' : undefined,
      continueRollout: false,
      pipeline,
      sources: request.sources,
      vars: request.vars,
      selection,
      env: request.env,
      command: `enginectl run --shard ${request.index + 1}/${manifest.shards}`,
      label: `run ${stored.runId}`,
      now,
      verify: { masker: request.masker, signal: request.signal },
      masker: request.masker,
      warn: (w) => request.logger.warn(undefined, w),
    });
  } catch (error) {
    // Verify could not tell whether a call it left was applied: the site fails, in doubt, for the operator.
    if (!(error instanceof EnginectlError) || request.signal.aborted) throw error;
    return {
      outcome: 'failure',
      detail: `${manifest.over} ${site}: its run ${stored.runId} cannot go on: ${error.message}`,
    };
  }
  journal.spec.file.replicateTo(stored.replica);
  try {
    for (const v of journal.verified) request.say(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`);
    const done = await runAndReport(
      {
        pipeline,
        env: request.env,
        selection,
        reports: {},
        emulatorUrl: request.emulatorUrl,
        journal: journal.spec,
        resume: journal.resume,
        sources: request.sources,
        vars: request.vars,
        lease,
      },
      {
        masker: request.masker,
        logger: request.logger,
        signal: request.signal,
        clock: request.clock,
        stopwatch: request.stopwatch,
      },
    );
    reports.push({ site, siteRun: stored.runId, report: done.rendered.report });
    if (done.halted instanceof LeaseError) return { outcome: 'cancelled', lost: true };
    if (done.halted) throw done.halted;
    const outcome =
      done.result.outcome === 'success' ? 'success' : done.result.outcome === 'cancelled' ? 'cancelled' : 'failure';
    const failed = done.result.steps.find((s) => s.outcome === 'failure' || (s.inDoubt && !s.decision));
    return { outcome, detail: failed ? `${failed.name}: ${failed.error?.message ?? failed.outcome}` : undefined };
  } finally {
    const unsettled = await journal.spec.file.settle();
    if (unsettled) request.logger.warn(undefined, unsettled);
    journal.spec.file.close();
  }
}

/** The analysis after a wave, by the elected worker: the bake left (parked past the wait limit), then the gates' rounds over the sites that passed. */
async function analyse(
  request: ShardWorkerRequest,
  manifest: Manifest,
  wave: number,
  passed: string[],
  since: number,
): Promise<{ passed: boolean; text: string } | { parked: string }> {
  const rollout = request.pipeline.rollout!;
  const analysis = rollout.analysis!;
  const bakeMs = bakeOf(rollout, wave);
  const left = since + bakeMs - request.clock.now();
  if (left > request.waitLimitMs) return { parked: `the ${formatDuration(bakeMs)} bake after wave ${wave}` };
  if (left > 0) {
    request.say(`wave ${wave}: baking ${formatDuration(left)} before its analysis`);
    await request.clock.sleep(left, request.signal);
  }
  if (analysis.gates.length === 0) return { passed: true, text: 'baked; no gates to run again' };
  const steps = request.pipeline.steps.filter((s) => s.id !== undefined && analysis.gates.includes(s.id));
  const pipeline: Pipeline = { ...request.pipeline, rollout: undefined, steps };
  let failedRounds = 0;
  let text = `${analysis.count} round(s) of ${analysis.gates.join(', ')} held`;
  for (let round = 1; round <= analysis.count; round++) {
    await request.clock.sleep(analysis.intervalMs, request.signal);
    const done = await runAndReport(
      {
        pipeline,
        env: request.env,
        selection: { only: { [manifest.over]: passed }, skip: {} },
        reports: {},
        emulatorUrl: request.emulatorUrl,
        sources: request.sources,
        vars: request.vars,
      },
      {
        masker: request.masker,
        logger: request.logger,
        signal: request.signal,
        clock: request.clock,
        stopwatch: request.stopwatch,
      },
    );
    if (done.result.outcome === 'success') continue;
    failedRounds += 1;
    const failures = done.result.steps
      .filter((s) => s.outcome === 'failure')
      .map((s) => `${s.name}: ${s.error?.message ?? 'failed'}`);
    text = `round ${round}/${analysis.count}: ${failures.join('; ')}`;
    if (failedRounds > analysis.failureLimit) return { passed: false, text };
  }
  return { passed: true, text };
}
