// One composition of a run, for the CLI and every action: clients that mask server text, the
// runner, the result masked as values, its renderings and the report files. The edges add only
// what is theirs: the CLI its CI conventions, the action its outputs, summary, comment and
// Deployment.
import { EngineClient } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { renderings, type Renderings } from '../report/renderings.ts';
import type { RunLogger } from '../runner/logger.ts';
import type { Masker } from '../runner/masker.ts';
import type { RunResult } from '../runner/result.ts';
import { runPipeline } from '../runner/run-pipeline.ts';
import type { Env, ResolvedServer } from '../runner/scope.ts';
import type { Clock } from './clock.ts';
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
}

export interface RunContext {
  masker: Masker;
  logger: RunLogger;
  signal: AbortSignal;
  clock: Clock;
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

export async function runAndReport(request: RunRequest, context: RunContext): Promise<RunDone> {
  const { masker, logger } = context;
  const clientFor = (server: ResolvedServer) =>
    new EngineClient(request.emulatorUrl ? { url: request.emulatorUrl, username: 'admin', password: 'admin', timeoutMs: server.timeoutMs, maxResponseBytes: server.maxResponseBytes } : server, {
      env: request.env,
      redact: (text) => masker.mask(text),
      onRetry: ({ attempt, delayMs, error }) => logger.info(undefined, masker.mask(`retry ${attempt} in ${formatDuration(delayMs)} after: ${error.message}`)),
    });
  const raw = await runPipeline(
    request.pipeline,
    { clientFor, env: request.env, logger, signal: context.signal, now: context.clock.now, sleep: context.clock.sleep, masker, onStart: context.onStart },
    { only: request.only },
  );
  // Secrets learnt during the run (a license code) are masked in the steps before it too.
  const result = masker.maskValue(raw);
  const rendered = renderings(result);
  const { written, failed } = await writeReports(rendered, request.reports);
  return { result, rendered, written, failed: failed.map((f) => masker.mask(f)) };
}
