// One site of a sharded run, run by a worker: a stored run of its own over the site's instances
// (its journal written ahead in the run store, fenced by the worker's lease), or the resume of one
// taken over from a worker that is gone, verify-and-retry deciding its calls in doubt: applied is
// not sent again; what verify cannot tell fails the site, for an operator.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ApiError } from '../api/index.ts';
import { EnginectlError, Interrupted } from '../errors.ts';
import { VerifyUnsettled } from '../journal/verify.ts';
import type { SiteEnd } from '../shard/worker.ts';
import { shardKeys, type Manifest } from '../shard/manifest.ts';
import { LeaseError, type HeldLease } from '../store/lease.ts';
import { openStoredRun, storedJournalNames, takeOverStoredRun } from './stored-run.ts';
import { setUpJournal } from './journal-setup.ts';
import { runAndReport } from './run.ts';
import { finishedHint, shardedHints } from './shard-hints.ts';
import {
  endedRun,
  leftParked,
  liveRunner,
  readBackLeftParked,
  unsettledReport,
  windowParked,
} from './shard-takeover.ts';
import { undecidedDoubts } from '../runner/result.ts';
import { sitePipeline } from './site-pipeline.ts';
import type { SiteReport } from './shard-worker-report.ts';
import type { ShardWorkerRequest } from './shard-request.ts';
import { CLI_WAYS } from '../ways-on.ts';
import { parkingOf } from './parked.ts';

/** One site: a stored run of its own over the site's instances (a new run, or the resume of one taken over). */
export async function runSite(
  request: ShardWorkerRequest,
  manifest: Manifest,
  lease: HeldLease,
  site: string,
  siteRun: { id: string; resume: boolean; halting?: boolean | undefined },
  reports: SiteReport[],
): Promise<SiteEnd> {
  const pipeline = sitePipeline(request.pipeline, manifest.over, site);
  const selection = { only: { [manifest.over]: [site] }, skip: {} };
  const now = request.clock.now();
  // A local copy of its own: an earlier attempt's file of the same run (on this machine) is never appended to.
  const local = () => join(tmpdir(), `enginectl-${siteRun.id}.${randomBytes(4).toString('hex')}.journal.jsonl`);
  // A site taken over: its journal fenced before it is read (the worker gone may only be paused); one
  // with no record yet starts afresh after the fence. A new run is named the sharded run's first.
  if (!siteRun.resume) await request.store.create(shardKeys(manifest.run).siteRun(siteRun.id), Buffer.alloc(0));
  const stored = siteRun.resume
    ? await takeOverStoredRun(request.store, siteRun.id, local)
    : await openStoredRun({
        url: request.storeUrl,
        store: request.store,
        newId: siteRun.id,
        journal: local(),
        cwd: request.cwd,
        env: request.env,
        tmpdir: tmpdir(),
        now,
      });
  const resume = stored.resume;
  // A runner of the site's run itself (an operator's run --resume of it, its worker gone) holds it
  // by its own lease: a call it has in flight is not in doubt, and verify would read it "not
  // applied" and send it again. Read after the fence (that runner can put nothing more in the
  // journal, and stops at its next record): the site is left, nothing verified or sent, to the
  // index run again once that runner stopped.
  const runner = resume ? await liveRunner(request, stored.runId) : undefined;
  if (runner) {
    rmSync(stored.path, { force: true });
    request.say(
      `${manifest.over} ${site}: its run ${stored.runId} is held by ${runner}: a call it has in flight is not in doubt; nothing was verified or sent: the site is left to a later attempt (its journal fenced, that runner stops at its next record): run this index again once it stopped`,
    );
    return { outcome: 'cancelled' };
  }
  // A run that ended (its finish recorded, its end not in the wave's log: the store failed as the
  // worker appended it, or the worker died between) is not resumed: its outcome is the site's, as
  // one process counts it. Resumed, a write it failed would be sent again and its failure lost.
  const finished = resume ? endedRun(request, stored, lease) : undefined;
  if (finished) {
    rmSync(stored.path, { force: true });
    reports.push({ site, siteRun: stored.runId, report: finished.report });
    request.say(
      `${manifest.over} ${site}: its run ${stored.runId} had ended (${finished.outcome}) before its end reached the wave's log: not run again, its outcome counts in its wave`,
    );
    return finished.end;
  }
  // Parked for its window in a wave whose failures passed its budget: not gone on with, as one
  // process's rollout sends none of it (a call in doubt from before its park read back first); one
  // gone on with since its park (a continue that died) was under way: its calls in doubt read back.
  const waiting = resume && siteRun.halting ? windowParked(request, stored) : undefined;
  const where = { over: manifest.over, site, runId: stored.runId };
  if (waiting && !waiting.wentOn) {
    const end = waiting.inDoubt
      ? await readBackLeftParked(request, pipeline, where, waiting)
      : leftParked(request, where, waiting, 'not gone on with, nothing sent');
    rmSync(stored.path, { force: true });
    return end;
  }
  if (siteRun.resume && !resume)
    request.say(
      `${manifest.over} ${site}: its run ${siteRun.id} has no record in the store: started afresh, after a fence (a segment its worker puts late is refused)`,
    );
  let journal;
  try {
    journal = await setUpJournal({
      path: stored.path,
      resume,
      force: false,
      inDoubt: resume ? (waiting ? 'verify' : 'verify-and-retry') : undefined,
      ways: CLI_WAYS,
      continueRollout: false,
      // Parked for its window: it goes on as run --continue does (the window judged again, the wait counted from its first park).
      continueWindow: true,
      pipeline,
      sources: request.sources,
      vars: request.vars,
      selection,
      env: request.env,
      command: `enginectl run --shard ${request.index + 1}/${manifest.shards}`,
      ...storedJournalNames(stored),
      now,
      verify: { masker: request.masker, signal: request.signal, clock: request.clock },
      masker: request.masker,
      warn: (w) => request.logger.warn(undefined, w),
    });
  } catch (error) {
    // Read back not applied, its wave past its budget: not sent again; its run stays parked for its window.
    if (waiting && error instanceof VerifyUnsettled && error.notApplied) {
      rmSync(stored.path, { force: true });
      for (const v of error.open) request.say(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`);
      const calls =
        error.open.length === 1 ? 'its call in doubt was' : `${error.open.length} of its calls in doubt were`;
      return leftParked(request, where, waiting, `${calls} read back not applied: not sent again`);
    }
    // Verify could not tell whether a call it left was applied: the site fails, in doubt, for the
    // operator, and this worker's reports show it as the store holds it (its call in doubt).
    if (error instanceof VerifyUnsettled && !request.signal.aborted)
      unsettledReport(request, stored, lease, where, reports);
    // Nothing was added to the journal: its local copy (a taken-over run's, laid from the store) goes.
    rmSync(stored.path, { force: true });
    // Cut by the stop while its journal was opened (a takeover's verify reading the target): the site
    // is left, not ended, for a later attempt; the worker ends interrupted, its reports written.
    if (request.signal.aborted && cutByStop(error, request.signal)) return { outcome: 'cancelled' };
    if (!(error instanceof EnginectlError)) throw error;
    const detail = `${manifest.over} ${site}: its run ${stored.runId} cannot go on: ${error.message}`;
    // Said where the operator reads (the worker's log), not only in the site's terminal record.
    // Verify's hint is a run's (resume with --in-doubt), which a worker does not take: the site fails, for an operator.
    request.say(
      error instanceof VerifyUnsettled
        ? `✖ ${detail}; it counts as failed in its wave: check the call on the server (enginectl verify --store URL --run ${stored.runId} reads it again)`
        : `✖ ${detail}${error.hint ? `; ${error.hint}` : ''}`,
    );
    return { outcome: 'failure', detail };
  }
  journal.spec.file.replicateTo(stored.replica);
  // Nothing halted the journal: every record went to the store, and the local copy may go once settled.
  let whole = false;
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
        // The manifest's hash, which this worker's files were checked against: not hashed again at each site.
        sha256: manifest.sha256,
        vars: request.vars,
        lease,
        windows: { windowOverride: request.windowOverride },
        // A write its window does not admit parks the site's run for the next window (not a failure of its wave).
        park: parkingOf(pipeline),
      },
      {
        masker: request.masker,
        // The worker's terminal says what a sharded site's steps say in its reports: a worker takes no --in-doubt.
        logger: {
          stepStarted: (run, position) => request.logger.stepStarted(run, position),
          stepFinished: (run, position) =>
            request.logger.stepFinished(finishedHint(run, stored.runId, selection), position),
          info: (run, message) => request.logger.info(run, message),
          warn: (run, message) => request.logger.warn(run, message),
        },
        signal: request.signal,
        clock: request.clock,
        stopwatch: request.stopwatch,
      },
    );
    // Ended here (not cut short: a lost lease, an interrupt or a halt leaves it to a later attempt).
    // Parked for its window: not ended either (the same index goes on with it).
    const ended = done.halted === undefined && done.result.outcome !== 'cancelled' && !done.result.parked;
    // A write left in doubt, no one having decided, fails the site in its wave, whatever
    // continue-on-error let pass (runner/result.ts undecidedDoubts): as its exit would, and its report.
    const doubts = undecidedDoubts(done.result.steps);
    const report = shardedHints(done.rendered.report, stored.runId, ended);
    if (ended && doubts.length > 0 && report.outcome === 'success') report.outcome = 'failure';
    // Its run as it ended last: a run gone on after its window's park replaces the park's.
    const earlier = reports.findIndex((r) => r.site === site && r.siteRun === stored.runId);
    if (earlier >= 0) reports.splice(earlier, 1);
    reports.push({ site, siteRun: stored.runId, report });
    whole = done.halted === undefined;
    if (done.halted instanceof LeaseError) return { outcome: 'cancelled', lost: true, loss: done.halted.loss };
    if (done.halted) throw done.halted;
    // Parked for its window: not ended, not failed; its worker waits for the window or parks.
    const parked = done.result.parked;
    if (parked?.for === 'window' && parked.until !== undefined && done.result.outcome !== 'cancelled')
      return { outcome: 'parked', window: { until: parked.until, since: parked.since } };
    const outcome =
      done.result.outcome === 'success' && doubts.length === 0
        ? 'success'
        : done.result.outcome === 'cancelled'
          ? 'cancelled'
          : 'failure';
    const failed = doubts[0] ?? done.result.steps.find((s) => s.outcome === 'failure');
    return { outcome, detail: failed ? `${failed.name}: ${failed.error?.message ?? failed.outcome}` : undefined };
  } finally {
    const unsettled = await journal.spec.file.settle();
    if (unsettled) request.logger.warn(undefined, unsettled);
    journal.spec.file.close();
    // The local copy, once the store holds every record of it (a site of 10,000 leaves none behind); kept when it holds the only copy of some.
    if (whole && !unsettled) rmSync(stored.path, { force: true });
  }
}

/** An error that only says the stop cut what was under way (a call aborted, a verify told as interrupted), not a fault of its own. */
const cutByStop = (error: unknown, signal: AbortSignal): boolean =>
  error === signal.reason ||
  error instanceof Interrupted ||
  (error instanceof ApiError && error.code === 'API_ABORTED') ||
  (error instanceof Error && error.name === 'AbortError');
