// One composition of a run, for the CLI and every action: clients that mask server text, the runner,
// the result masked as values, its renderings, and its publishing: the report files and every channel
// the edge adds (app/channels/: its CI's, dotenv, a webhook; the action's outputs, summary, comment,
// Deployment) told through one publisher.
import type { Pipeline } from '../pipeline/model.ts';
import { renderings, type Renderings } from '../report/renderings.ts';
import { renderMarkdown } from '../report/markdown.ts';
import type { RunLogger } from '../runner/run-logger.ts';
import type { Masker } from '../runner/masker.ts';
import { maskInstance, maskLease, maskRun } from '../runner/mask-model.ts';
import type { RunResult, StepRun } from '../runner/result.ts';
import type { JournalSpec } from './journal-spec.ts';
import { maskedSha256, runRecord } from './run-record.ts';
import { calledAt } from '../api/called-at.ts';
import type { Selection } from '../pipeline/selection.ts';
import type { Source } from './pipeline-input.ts';
import { runPipeline } from '../runner/run-pipeline.ts';
import type { Env } from '../runner/scope.ts';
import type { ResumePlan } from '../runner/resume.ts';
import type { RunnerDeps, RunStart } from '../runner/run-context.ts';
import type { JournalWriteError } from '../journal/file.ts';
import { LeaseError } from '../store/lease.ts';
import { finishRecord, journalObserver, journalWriter } from '../journal/observer.ts';
import { inputsDigest } from '../journal/hashing.ts';
import { steadyNow, type Clock } from './clock.ts';
import type { ReportPaths } from './report-files.ts';
import { fenced, stoppedBy } from './lease-fence.ts';
import { boundedSend } from './bounded-send.ts';
import { publisher, endOf, type Channel } from './channels/channel.ts';
import { reportFilesChannel, type ReportFilesChannel } from './channels/report-files.ts';
import { clientFactory } from './clients.ts';
import type { AtomicFs } from './atomic-write.ts';

export interface RunRequest {
  pipeline: Pipeline;
  env: Env;
  /** --only and --skip: the matrix instances the run is limited to. */
  selection: Selection;
  /** The report files to write (checked before the run). */
  reports: ReportPaths;
  /** run --emulator: every server is a site of the embedded emulator served at this URL (its own state), as admin/admin. */
  emulatorUrl?: string | undefined;
  /** --journal: where the run's events are appended, and what identifies the run. */
  journal?: JournalSpec | undefined;
  /** --resume: the instances not to run again. */
  resume?: ResumePlan | undefined;
  /** The files the pipeline read, whose hash identifies it in the reports and the journal (`report --merge` compares it); none for a single-step action, whose inputs hold credentials. */
  sources?: readonly Source[] | undefined;
  /**
   * The files' hash (pipelineSha256) when the caller has it already: a shard worker's, checked
   * against its files once, for each of its sites' runs (hashing every file at every site would
   * cost the fleet's size at each site). Computed from `sources` otherwise.
   */
  sha256?: string | undefined;
  /** The --var values the run was given: part of what identifies the pipeline (another fleet). */
  vars?: Readonly<Record<string, unknown>> | undefined;
  /** With a run store: the run may park (a bake longer than afterMs, a decision on-failure: decide asks for). */
  park?: { afterMs: number } | undefined;
  /** The lease this run holds: checked before every write is sent; a fleet lease (its summary) shown in every report. */
  lease?:
    { check(): Promise<void>; stillHeld(): Promise<void>; summary?(): NonNullable<RunResult['lease']> } | undefined;
  /** Windows and freezes: earlier write durations (--history), who overrides with --override-freeze; and how the surface names the ways on its hints give (the CLI's flags by default). */
  windows?: Pick<RunnerDeps, 'history' | 'windowOverride' | 'ways'> | undefined;
}

export interface RunWorld {
  masker: Masker;
  logger: RunLogger;
  signal: AbortSignal;
  clock: Clock;
  /** Timestamps and durations in the result: real time when `clock` is simulated. */
  stopwatch?: () => number;
  /**
   * Where the run is published, in order, given the channel of its report files to place (alone
   * by default): told its start once its vars are known, each instance as it ends, and its end.
   * A channel's failure is a warning.
   */
  channels?: ((reportFiles: ReportFilesChannel) => readonly Channel[]) | undefined;
  /** Told each report file written. */
  reportWritten?: (path: string) => void;
  /** The file system the report files are written with (tests pass a full disk). */
  reportFs?: AtomicFs | undefined;
}

export interface RunDone {
  /** The result with every secret masked as values: what every report and output shows. */
  result: RunResult;
  rendered: Renderings;
  written: string[];
  /** Report files (and files of other channels: dotenv, the job summary) that could not be written, as "--flag path: reason" (masked). */
  failed: string[];
  /** The journal could not be written, or the lease was lost: the run stopped before its next call (exit 1). */
  halted: JournalWriteError | LeaseError | undefined;
}

export async function runAndReport(request: RunRequest, context: RunWorld): Promise<RunDone> {
  const { masker, logger } = context;
  const now = context.clock.now;
  const steady = context.stopwatch ?? steadyNow;
  const ways = request.windows?.ways;
  const reports = reportFilesChannel(request.reports, { said: context.reportWritten, fs: context.reportFs, ways });
  const publish = publisher(context.channels ? context.channels(reports) : [reports], {
    warn: (message) => logger.warn(undefined, message),
    mask: (text) => masker.mask(text),
  });
  const clientFor = clientFactory({
    env: request.env,
    masker,
    emulatorUrl: request.emulatorUrl,
    onRetry: (message) => logger.info(undefined, message),
    now,
  });
  const spec = request.journal;
  // A record that cannot be written (or too slowly for its write to leave), or the lease lost, stops
  // the run before its next call, the first cause standing; every report is still written.
  const halt = new AbortController();
  let halted: JournalWriteError | LeaseError | undefined;
  const stopRun = (error: JournalWriteError | LeaseError) => {
    if (halted) return;
    halted = error;
    halt.abort(error);
  };
  const write = spec ? journalWriter(spec.file, stopRun) : undefined;
  // The lease as the journal records it, before the first call: what every report of the run says of it.
  const lease = request.lease?.summary && maskLease(masker, request.lease.summary());
  const onStart = async (start: RunStart) => {
    // As places (an earlier enginectl recorded URLs as written, a query's token with them).
    for (const [name, url] of Object.entries(spec?.previousServers ?? {})) {
      const [was, now] = [calledAt(url), start.servers[name]];
      if (now !== undefined && now !== was)
        logger.warn(
          undefined,
          `server ${name} was ${was} in the journal's run and is ${now} now: carried steps were done on the former`,
        );
    }
    if (write && spec) {
      write(runRecord(request, spec, start, masker, now(), request.lease !== undefined), true);
      if (lease) write({ t: 'lease', at: now(), lease }, true);
      for (const d of spec.decisions ?? [])
        write({ t: 'decision', key: d.key, ...d.decision, method: d.method, path: d.path }, true);
      if (spec.continueRollout) write({ t: 'continue', ...spec.continueRollout }, true);
    }
    // The channels are told before the first step (a Deployment is in progress before the first call).
    await publish.started({ name: start.name });
  };
  // The journal is opened and closed by the edge that set it up (app/journal-setup.ts).
  let raw = await runPipeline(
    request.pipeline,
    {
      clientFor,
      env: request.env,
      // One list of listeners: the run log, the journal (each write leaving promptly after its record, fenced by the lease), the channels (each instance as it ends, masked).
      listeners: [
        logger,
        ...(write && spec
          ? [
              fenced(
                boundedSend(journalObserver(write, masker, now, inputsDigest(spec.salt)), steady, stopRun, ways),
                request.lease,
                steady,
                stopRun,
              ),
            ]
          : []),
        // Each instance masked again for the channels that hear it as it ends: without such a channel, not walked.
        ...(publish.hearsInstances
          ? [{ instanceFinished: (run: StepRun) => publish.instanceEnded(maskInstance(masker, run)) }]
          : []),
      ],
      signal: write ? AbortSignal.any([context.signal, halt.signal]) : context.signal,
      now,
      latest: context.clock.latest,
      stopwatch: context.stopwatch,
      sleep: context.clock.sleep,
      masker,
      onStart,
      ...request.windows,
    },
    { selection: request.selection, resume: request.resume, park: request.park },
  );
  // The durable records the run's last moments wrote and did not wait for (a park, a halt, an instance's
  // end) are in the store before the run says what it left there: one the store failed stops the run.
  await write?.flushed();
  // A journal refused while the lease was lost is said as that loss.
  halted = await stoppedBy(halted, request.lease);
  raw = {
    ...raw,
    pipelineSha256: request.sources && (request.sha256 ?? maskedSha256(request, request.sources)),
  };
  // The operator's decisions about the run itself, and the journal a resume read, in every report.
  const continued = spec?.continueRollout ?? spec?.continuedBefore;
  if (continued) raw = { ...raw, continued };
  const decided = spec?.decidedBefore ?? request.resume?.parked?.decided ?? [];
  if (decided.length) raw = { ...raw, decided: [...decided] };
  if (lease) raw = { ...raw, lease };
  if (spec?.resumedFrom)
    raw = {
      ...raw,
      resumedFrom: {
        journal: spec.resumedFrom.journal,
        name: spec.resumedFrom.name,
        file: spec.resumedFrom.file,
        samePipeline: spec.resumedFrom.sameFile || spec.resumedFrom.name === raw.name,
      },
    };
  if (halted) raw = { ...raw, outcome: 'failure' };
  else write?.(finishRecord(raw, masker, now()), true);
  // Secrets learnt during the run (a license code) are masked in the steps before it too.
  const result = maskRun(masker, raw);
  const rendered = renderings(result);
  const failed = await publish.ended(endOf(rendered.report, (o) => renderMarkdown(rendered.report, { ...o, ways })));
  return { result, rendered, written: [...reports.written], failed, halted };
}
