// One composition of a run, for the CLI and every action: clients that mask server text, the
// runner, the result masked as values, its renderings and the report files. The edges add only
// what is theirs: the CLI its CI conventions, the action its outputs, summary, comment and
// Deployment.
import { EngineClient } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { renderings, type Renderings } from '../report/renderings.ts';
import type { RunLogger } from '../runner/run-logger.ts';
import type { Masker } from '../runner/masker.ts';
import type { RunResult } from '../runner/result.ts';
import { runPipeline } from '../runner/run-pipeline.ts';
import type { Env, ResolvedServer } from '../runner/scope.ts';
import { plannedInstances, type ResumePlan } from '../runner/resume.ts';
import type { Clock } from './clock.ts';
import { JOURNAL_VERSION, JournalFile, journalObserver, sha256, type JournalRecord } from './journal.ts';
import { writeReports, type ReportPaths } from './report-files.ts';

export interface RunRequest {
  pipeline: Pipeline;
  env: Env;
  /** `--only KEY=VALUE`: the matrix instances to keep. */
  only: Readonly<Record<string, string>>;
  /** The report files to write (checked before the run). */
  reports: ReportPaths;
  /** run --emulator: every server is the embedded emulator at this URL, as admin/admin. */
  emulatorUrl?: string | undefined;
  /** --journal: where the run's events are appended, and what identifies the run. */
  journal?: JournalSpec | undefined;
  /** --resume: the instances not to run again. */
  resume?: ResumePlan | undefined;
}

export interface JournalSpec {
  path: string;
  /** sha256 of the pipeline file (or of a single-step action's inputs). */
  hash: string;
  /** The --var values as given. */
  vars: Readonly<Record<string, unknown>>;
}

export interface RunContext {
  masker: Masker;
  logger: RunLogger;
  signal: AbortSignal;
  clock: Clock;
  /** Timestamps and durations in the result: real time when `clock` is simulated. */
  stopwatch?: () => number;
  /** Told the run's resolved name once its vars are known, before the first step. */
  onStart?: (name: string) => void;
}

export interface RunDone {
  /** The result with every secret masked as values: what every report and output shows. */
  result: RunResult;
  rendered: Renderings;
  written: string[];
  /** Report files that could not be written, as "--flag path: reason" (masked). */
  failed: string[];
}

function runRecord(request: RunRequest, spec: JournalSpec, name: string, masker: Masker, at: number): JournalRecord {
  return {
    t: 'run',
    v: JOURNAL_VERSION,
    at,
    file: request.pipeline.file,
    hash: spec.hash,
    name,
    vars: masker.maskValue({ ...spec.vars }),
    varsHash: varsHash(spec.vars),
    only: { ...request.only },
    resume: request.resume !== undefined,
    instances: plannedInstances(request.pipeline, request.only),
  };
}

/** A hash of --var values as given, keys in order: what a resume compares. */
export function varsHash(vars: Readonly<Record<string, unknown>>): string {
  return sha256(JSON.stringify(Object.keys(vars).sort().map((k) => [k, vars[k]])));
}

export async function runAndReport(request: RunRequest, context: RunContext): Promise<RunDone> {
  const { masker, logger } = context;
  const clientFor = (server: ResolvedServer) =>
    new EngineClient(request.emulatorUrl ? { url: request.emulatorUrl, username: 'admin', password: 'admin', timeoutMs: server.timeoutMs, maxResponseBytes: server.maxResponseBytes } : server, {
      env: request.env,
      redact: (text) => masker.mask(text),
      onRetry: ({ attempt, delayMs, error }) => logger.info(undefined, masker.mask(`retry ${attempt} in ${formatDuration(delayMs)} after: ${error.message}`)),
    });
  const journal = request.journal ? JournalFile.open(request.journal.path) : undefined;
  const onStart = (name: string) => {
    if (journal && request.journal) journal.append(runRecord(request, request.journal, name, masker, context.clock.now()), true);
    context.onStart?.(name);
  };
  let raw: RunResult;
  try {
    raw = await runPipeline(
      request.pipeline,
      {
        clientFor,
        env: request.env,
        logger,
        signal: context.signal,
        now: context.clock.now,
        stopwatch: context.stopwatch,
        sleep: context.clock.sleep,
        masker,
        onStart,
        observer: journal ? journalObserver(journal, masker, context.clock.now) : undefined,
      },
      { only: request.only, resume: request.resume },
    );
    journal?.append({ t: 'finish', at: context.clock.now(), outcome: raw.outcome }, true);
  } finally {
    journal?.close();
  }
  // Secrets learnt during the run (a license code) are masked in the steps before it too.
  const result = masker.maskValue(raw);
  const rendered = renderings(result);
  const { written, failed } = await writeReports(rendered, request.reports);
  return { result, rendered, written, failed: failed.map((f) => masker.mask(f)) };
}
