// `enginectl run FILE --store URL --run ID --shard I/N|auto`: one worker of a sharded run (its
// manifest written by enginectl shard). Wires the command line to app/shard-worker.ts and prints
// what the worker did; its reports are the sites it ran, merged. Exit codes the engines act on:
// 0 its sites succeeded, 1 a site failed or the rollout halted, 2 invalid input, 69 the store or
// the lease failed before it sent anything, or it lost its lease, lapsed or released by an operator
// (run the index again: what it left is resumed with verify), 75 parked at a barrier or for a site's window (the same command later goes on), 130/143/129
// interrupted.
import type { WindowOverride } from '../runner/run-context.ts';
import { checkRunId } from '../journal/replica.ts';
import { ExitCode, UsageError } from '../errors.ts';
import { MAX_TIMER_MS, parseDuration, shownDuration, TIMER_LIMIT } from '../duration.ts';
import { MIN_LEASE_TTL_MS } from '../pipeline/schema.ts';
import { SHARD_INDEX_SOURCES } from '../ci/shard-index.ts';
import { beforeSending, parseShard, ShardUnavailable } from './shard-own.ts';
import type { CiSystem } from '../ci/system.ts';
import { RUN_VARIABLE, storeAt } from '../app/stored-run.ts';
import { runShardWorker, type ShardWorkerDone } from '../app/shard-worker.ts';
import { WorkerStopped } from '../app/shard-worker-report.ts';
import { realClock, steadyNow } from '../app/clock.ts';
import { WaitBudget } from '../shard/wait-budget.ts';
import { preparePaths, REPORT_NOT_WRITTEN } from '../app/report-files.ts';
import { endOf, publisher } from '../app/channels/channel.ts';
import { reportFilesChannel } from '../app/channels/report-files.ts';
import { ciSummaryChannel } from '../app/channels/ci.ts';
import type { Source } from '../app/pipeline-input.ts';
import { probeStore } from '../store/probe.ts';
import { StoreError } from '../store/store.ts';
import { LeaseError, type LeaseLoss } from '../store/lease.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { ReportPaths } from '../report/formats.ts';
import { renderMarkdown } from '../report/markdown.ts';
import { summaryLine } from '../report/summary-line.ts';
import type { Masker } from '../runner/masker.ts';
import { ciMasker } from './ci-masker.ts';
import { RunLog, useColour } from '../log/run-log.ts';
import { ciSink } from '../ci/ci-sink.ts';
import { neutralise, neutraliseLines } from '../text/neutralise.ts';
import type { CliIO } from './io.ts';

export const SHARD_OPTIONS_HELP = `  --shard I/N|auto   run as worker I of N of the sharded run --run ID (enginectl shard planned it):
                     auto reads the index its engine gives (${SHARD_INDEX_SOURCES}); needs --store
  --run ID           with --shard: the sharded run (also ${RUN_VARIABLE})
  --shard-wait D     with --shard: how long this job waits in all (its waits at waves' barriers,
                     on bakes, for sites' windows and for a gone worker's lease to lapse, added
                     up) before it parks at its next wait, exit 75 (default 30m): set it
                     below the CI job's time limit; the same
                     command later goes on, waiting up to D again
  --shard-ttl D      with --shard: the worker's lease (its claim on its sites) lapses D after its
                     last heartbeat (default 60s); another worker then takes its sites over`;

export interface ShardRunInput {
  file: string;
  values: {
    shard: string;
    run?: string | undefined;
    'shard-wait'?: string | undefined;
    'shard-ttl'?: string | undefined;
  };
  storeUrl: string | undefined;
  pipeline: Pipeline;
  sources: readonly Source[];
  vars: Readonly<Record<string, unknown>>;
  reports: ReportPaths;
  ci: CiSystem;
  windowOverride?: WindowOverride | undefined;
}

export async function runShardCommand(input: ShardRunInput, io: CliIO): Promise<number> {
  const { values } = input;
  if (input.storeUrl === undefined)
    throw new UsageError(
      'BAD_ARGUMENTS',
      'run --shard: the workers share a run store: give --store URL (or ENGINECTL_STORE)',
      {
        hint: 'enginectl run FILE --store s3://BUCKET/PREFIX --run ID --shard I/N',
      },
    );
  const run = values.run ?? io.env[RUN_VARIABLE];
  if (run === undefined)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `run --shard: which sharded run? give --run ID (or ${RUN_VARIABLE}), as enginectl shard printed it`,
      {
        hint: 'enginectl shard FILE --store URL --shards N plans it',
      },
    );
  // Not a run id (a path, or empty: ENGINECTL_RUN unset in the job): invalid input, not the store's failure to retry.
  checkRunId(run);
  const shard = parseShard(values.shard, io.env);
  const { waitLimitMs, ttlMs } = shardDurations(values);
  if (ttlMs < MIN_LEASE_TTL_MS)
    throw new UsageError('BAD_ARGUMENTS', `run: --shard-ttl ${values['shard-ttl']}: at least 3s`, {
      hint: "the worker renews its index's lease every third of it, and a renewal must reach the store in time",
    });
  const paths = await preparePaths(input.reports, io.cwd);
  const clock = io.clock ?? realClock();
  const logger = new RunLog(ciSink(input.ci, io.stdout, Date.now), { colour: useColour(io.stdoutIsTTY, io.env) });
  const masker = ciMasker(input.ci, (line) => io.stdout(`${line}\n`));
  io.maskerMade?.(masker);
  const say = (line: string) => io.stdout(`${neutraliseLines(masker.mask(line))}\n`);
  let done: ShardWorkerDone;
  let started = false;
  try {
    const store = storeAt(input.storeUrl, io.cwd, io.env, io.signal);
    await probeStore(store, clock.now);
    done = await runShardWorker({
      store,
      storeUrl: input.storeUrl,
      run,
      index: shard.index,
      total: shard.total,
      misfit: shard.misfit,
      pipeline: input.pipeline,
      sources: input.sources,
      vars: input.vars,
      env: io.env,
      cwd: io.cwd,
      windowOverride: input.windowOverride,
      masker,
      logger,
      signal: io.signal,
      clock,
      stopwatch: io.stopwatch ?? steadyNow,
      // One budget for the worker's waits in all, on its clock: a later job (the same command) has its own.
      waitBudget: new WaitBudget(waitLimitMs, clock.now),
      pollMs: Math.max(200, Math.min(5_000, Math.floor(ttlMs / 10))),
      ttlMs,
      say,
      onStart: () => (started = true),
    });
  } catch (error) {
    // Stopped by a fault after it sent something: its report is written first (every report is), then the fault is said.
    if (error instanceof WorkerStopped) {
      say(`shard ${values.shard}: ${error.stopped}: ${error.message}`);
      await publishReport(error.report, paths, input.ci, io, masker);
      // This attempt sent nothing (a retried index with no site left): safe to run the index again, as below.
      if (!started && error.fault instanceof StoreError && error.fault.code === 'STORE_FAILED')
        throw beforeSending(error.fault);
      throw error.fault;
    }
    if (started) throw error;
    // Stopped before it sent anything (waiting for its index's lease, say): nothing to report, and no fault of its own.
    if (io.signal.aborted)
      return (say(`shard ${values.shard}: interrupted before it sent anything`), ExitCode.interrupted);
    // The store or the lease failed before anything was sent: safe to run the index again (a damaged record is read again as it is, a refusal of permissions met again: not).
    if (error instanceof StoreError && error.code === 'STORE_FAILED') throw beforeSending(error);
    if (error instanceof LeaseError && error.code === 'LEASE_HELD') throw new ShardUnavailable(error);
    throw error;
  }
  const { result, report, manifest, endedEarlier } = done;
  const failedEarlier = endedEarlier.filter((r) => r.outcome === 'failure');
  const failed = [...result.ran.filter((r) => r.outcome === 'failure'), ...failedEarlier];
  // Ended by an earlier attempt: said as such, not as run by this one (nothing of them was sent).
  for (const r of endedEarlier)
    say(
      `${r.outcome === 'success' ? '✔' : '✖'} ${manifest.over} ${r.site} (wave ${r.wave}): ${r.outcome}, in an earlier attempt of this shard`,
    );
  for (const r of result.ran)
    say(
      `${r.outcome === 'success' ? '✔' : r.outcome === 'parked' ? '⏸' : '✖'} ${manifest.over} ${r.site} (wave ${r.wave}): ${r.outcome === 'parked' ? 'parked for its window' : r.outcome}  run ${r.siteRun}`,
    );
  const end = result.end;
  const headline =
    end.outcome === 'done'
      ? `shard ${shard.index + 1}/${manifest.shards}: done, ${result.ran.length} ${manifest.over}(s) run, ${failed.length} failed${failedEarlier.length ? ` (${failedEarlier.length} in an earlier attempt)` : ''}`
      : end.outcome === 'halted'
        ? `shard ${shard.index + 1}/${manifest.shards}: the rollout halted at wave ${end.wave}: ${end.reason}; nothing is undone`
        : end.outcome === 'parked'
          ? `parked: waiting for ${end.waitingFor}; run the same command again ${end.windows && end.until !== undefined ? `at or after ${new Date(end.until).toISOString()}` : 'later'} to go on (run ${manifest.run})`
          : end.outcome === 'lost'
            ? `shard ${shard.index + 1}/${manifest.shards}: ${lostWords(end.loss)}: nothing more is sent; run the index again: ${manifest.over} ${end.site} and the others it left are resumed, verify deciding their calls in doubt`
            : `shard ${shard.index + 1}/${manifest.shards}: interrupted`;
  say(headline);
  const written = await publishReport(report, paths, input.ci, io, masker);
  if (end.outcome === 'parked') return ExitCode.parked;
  if (end.outcome === 'cancelled') return ExitCode.interrupted;
  // Lost its lease: nothing it left is lost (each site's journal is in the store); the index runs again.
  if (end.outcome === 'lost') return ExitCode.unavailable;
  return end.outcome === 'done' && failed.length === 0 && written ? ExitCode.ok : ExitCode.failed;
}

/** How the worker lost its lease, as its last line says it: an operator's release is no lapse, and nothing took it. */
function lostWords(loss: LeaseLoss | undefined): string {
  const at = (ms: number) => new Date(ms).toISOString();
  switch (loss?.how) {
    case 'released':
      return `its lease was released by ${loss.by}${loss.reason ? `: ${loss.reason}` : ''} (at ${at(loss.at)}; nothing took it over)`;
    case 'lapsed':
      return `its lease lapsed at ${at(loss.at)} (it could not renew it in time)`;
    case 'taken':
      return `its lease lapsed and was taken by ${loss.by} (it could not renew it in time)`;
    case 'went-on':
      return `its lease is no longer its own: ${loss.by} went on with it`;
    case 'unread':
      return 'its lease is no longer its own (the record after its last could not be read)';
    default:
      return 'its lease is no longer its own';
  }
}

/** The worker's report files (the sites it ran, merged) and its CI summary; false when one could not be written. */
async function publishReport(
  report: ShardWorkerDone['report'],
  paths: ReportPaths,
  ci: CiSystem,
  io: CliIO,
  masker: Masker,
): Promise<boolean> {
  const print = (line: string) => io.stdout(`${line}\n`);
  const publish = publisher(
    [
      reportFilesChannel(paths, { said: (p) => print(`report: ${neutralise(p)}`) }),
      ciSummaryChannel(ci, io.env, print, { summaryFile: paths.summary, fullReport: paths.json ?? paths.html }),
    ],
    { warn: (m) => io.stderr(`enginectl: warning: ${neutralise(m)}\n`), mask: (t) => masker.mask(t) },
  );
  print(summaryLine(report));
  const failed = await publish.ended(endOf(report, (o) => renderMarkdown(report, { fullReport: o.fullReport })));
  for (const f of failed) io.stderr(`enginectl: ${REPORT_NOT_WRITTEN.code}: ${neutralise(f)}\n`);
  return failed.length === 0;
}

/** A duration flag (30m, 1h, 90s), or its default. */
function durationOf(given: string | undefined, fallback: string, flag: string): number {
  const ms = parseDuration(given ?? fallback);
  const shown = given === undefined ? given : shownDuration(given);
  if (ms === undefined || ms <= 0)
    throw new UsageError('BAD_ARGUMENTS', `run: ${flag} ${shown}: give a duration such as 30m, 1h or 90s`);
  if (ms > MAX_TIMER_MS) throw new UsageError('BAD_ARGUMENTS', `run: ${flag} ${shown}: ${TIMER_LIMIT}`);
  return ms;
}

/** --shard-wait and --shard-ttl read, before anything is read from the store. */
export function shardDurations(values: { 'shard-wait'?: string | undefined; 'shard-ttl'?: string | undefined }) {
  return {
    waitLimitMs: durationOf(values['shard-wait'], '30m', '--shard-wait'),
    ttlMs: durationOf(values['shard-ttl'], '60s', '--shard-ttl'),
  };
}
