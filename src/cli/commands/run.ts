// `enginectl run FILE`: validates, then runs the pipeline (or prints its plan with --dry-run).
import { EngineClient } from '../../api/index.ts';
import { Emulator, serve } from '../../emulator/index.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { formatDuration } from '../../duration.ts';
import { planPipeline, renderPlan } from '../../runner/plan.ts';
import { Masker } from '../../runner/masker.ts';
import { runPipeline } from '../../runner/run-pipeline.ts';
import { preparePaths, writeReports } from '../../report/write.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';
import { loadPipelineFile, parseOnly, parseVars } from '../pipeline-file.ts';
import { realClock, simulatedClock } from '../simulated-time.ts';
import { summaryLine, TerminalLogger, useColour } from '../terminal-logger.ts';

export const RUN_HELP = `Usage: enginectl run FILE [options]

Validates the pipeline, then runs its steps against the enterprise API.

Options:
  --var NAME=VALUE   override a var (the value is read as YAML: 3, [1001, 1002], text) (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value, one per CI job (repeatable)
  --dry-run          print each call the pipeline would make, secrets masked; make none
  --emulator         run against the embedded emulator (as admin/admin); waits pass on a
                     simulated clock, so gates that poll every 2 minutes finish at once
  --report-json F    write the JSON report (docs/report-format.md)
  --junit F          write JUnit XML, one testcase per step instance
  --summary F        write the Markdown summary (under 1 MiB)
  --html F           write the self-contained HTML report with a timeline
  -h, --help         show this help

Reports are written even when a step fails or the run is interrupted; their paths are checked
before anything runs.

Exit codes: 0 success, 1 a step failed (or a report could not be written), 2 invalid input,
130/143 interrupted (SIGINT/SIGTERM).`;

export async function runPipelineCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', args, {
    var: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    emulator: { type: 'boolean' },
    'report-json': { type: 'string' },
    junit: { type: 'string' },
    summary: { type: 'string' },
    html: { type: 'string' },
  });
  if (values.help) {
    io.stdout(`${RUN_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1) throw new UsageError('BAD_ARGUMENTS', `run: expected one pipeline FILE, got ${positionals.length}`, { hint: 'enginectl run pipelines/demo.yml' });
  const file = positionals[0]!;
  const only = parseOnly(values.only);
  const { pipeline } = await loadPipelineFile(file, io, { vars: parseVars(values.var), emulator: values.emulator });
  const paths = await preparePaths({ json: values['report-json'], junit: values.junit, summary: values.summary, html: values.html }, io.cwd);

  if (values['dry-run']) {
    io.stdout(`dry run of "${pipeline.name}": no request is made\n${renderPlan(planPipeline(pipeline, io.env, { only }))}\n`);
    return ExitCode.ok;
  }

  const logger = new TerminalLogger(io.stdout, useColour(io.stdoutIsTTY, io.env));
  const masker = new Masker();
  const execute = async (clientUrl: string | undefined, clock: ReturnType<typeof realClock>) => {
    io.stdout(`running "${pipeline.name}" (${pipeline.steps.length} steps)${clientUrl ? ` against the embedded emulator at ${clientUrl}` : ''}\n`);
    const result = await runPipeline(
      pipeline,
      {
        clientFor: (server) =>
          new EngineClient(
            clientUrl ? { url: clientUrl, username: 'admin', password: 'admin', timeoutMs: server.timeoutMs } : server,
            { env: io.env, onRetry: ({ attempt, delayMs, error }) => logger.info(undefined, `retry ${attempt} in ${formatDuration(delayMs)} after: ${error.message}`) },
          ),
        env: io.env,
        logger,
        signal: io.signal,
        now: clock.now,
        sleep: clock.sleep,
        masker,
      },
      { only },
    );
    io.stdout(`${summaryLine(result)}\n`);
    const { written, failed } = await writeReports(result, paths, masker);
    for (const path of written) io.stdout(`report: ${path}\n`);
    for (const failure of failed) io.stderr(`enginectl: REPORT_NOT_WRITTEN: ${masker.mask(failure)}\n`);
    if (result.outcome === 'cancelled') return ExitCode.interrupted;
    return result.outcome === 'success' && failed.length === 0 ? ExitCode.ok : ExitCode.failed;
  };

  if (!values.emulator) return execute(undefined, realClock());
  const clock = simulatedClock();
  const emulator = new Emulator({ now: clock.now });
  const running = await serve(emulator, { port: 0 });
  try {
    const code = await execute(running.url, clock);
    if (clock.advanced() > 0) io.stdout(`(simulated clock: waits took ${formatDuration(clock.advanced())} of emulator time)\n`);
    return code;
  } finally {
    await running.close();
  }
}
