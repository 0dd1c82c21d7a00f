// `enginectl plan FILE`: the dry run, each call that would be made, secrets masked.
import { realClock } from '../../app/clock.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { standInWarning, withStandIns } from '../../app/stand-ins.ts';
import { makePlan, type PlanOutput } from '../../app/plan.ts';
import { driftAudit } from '../../report/drift-audit.ts';
import { publisher } from '../../app/channels/channel.ts';
import { ciSummaryChannel } from '../../app/channels/ci.ts';
import { CI_NAMES } from '../../ci/detect.ts';
import { driftMarkdown, driftText } from '../../report/drift-table.ts';
import { livePlanMarkdown } from '../../report/live-plan-markdown.ts';
import { preflight } from '../../app/preflight.ts';
import { unproven, unprovenWarning } from '../../app/plan-servers.ts';
import { UNPINNED_WARNING } from '../../app/plan-pins.ts';
import { writeAtomic } from '../../app/atomic-write.ts';
import { resolve } from 'node:path';
import { parseCommandArgs } from '../args.ts';
import { checkOwnFiles, named, pipelineFiles } from '../../app/own-files.ts';
import {
  EMULATOR_OPTIONS,
  EMULATOR_OPTIONS_HELP,
  checkStateFiles,
  emulatorEnv,
  hasEmulatorOptions,
  stateFiles,
  withEmulatedSites,
} from '../emulator-options.ts';
import { chooseCi, type CliIO } from '../io.ts';
import { ciMasker } from '../ci-masker.ts';
import { serverPlaces } from '../../app/server-places.ts';
import { historyOf } from '../window-options.ts';
import { loadPipelineFile, parseSelection, parseVars } from '../../app/pipeline-input.ts';
import { neutralise, neutraliseLines } from '../../text/neutralise.ts';

export const PLAN_HELP = `Usage: enginectl plan FILE [options]

The dry run: validates the pipeline and prints each call it would make (method, path, body),
secrets masked. Makes no request, so it needs no secret: one not set stands in, masked, and a
warning names it. Outputs of earlier steps appear as <steps.ID.outputs.NAME>.

With --live, the preflight before a change window: every read-only step (gates, checks, reads)
runs for real, once and without waiting, and says what it finds now: it holds, it would wait
(and for what), or it FAILS NOW; later steps see the values read. Only GET requests are sent,
whatever a step or the server does: every write is shown and not sent. Its requests carry the
credentials: every secret it uses must be set, and each server is checked as run checks it (https://,
or allow-insecure-http) before the first request.

Options:
  --var NAME=VALUE   override a var (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value (repeatable: a key given
                     twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --emulator         plan as run --emulator would (with --live: against the embedded emulator,
                     each server a site with its own state). With --emulator --live, also:
${EMULATOR_OPTIONS_HELP.replace(/^ {2}/gm, '    ')}
  --live             run the read-only steps for real, GET requests only (the preflight)
  --out F            with --live: save the plan to F (JSON, secrets masked); run --plan F runs it
                     and refuses when the state it saw has moved
  --expect           with --live: a drift audit. The pipeline's checks (read-only steps: versions,
                     alerts, licenses, replication) are what every site is expected to hold now;
                     a row per site (a server of the pipeline), exit 1 when one drifted, 3
                     when none drifted but one could not be read (its server unreachable: no
                     drift, it is not known); a pipeline that writes is refused
  --json F           with --expect: the audit as JSON (the sites that drifted, those that could
                     not be read, each check found)
  --summary F        with --live: the live plan as Markdown (an MR note, a PR comment); with
                     --expect the audit (also the job summary in GitHub Actions and Azure Pipelines)
  --history F        a journal of earlier runs: each step type's write durations at each server's
                     URL give the p95 a write is expected to take in its window, as run --history
                     reads them (repeatable)
  --ci NAME          with --expect: put the audit where a CI system shows its summary: ${CI_NAMES.join(', ')}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 (with --live: nothing fails now), 1 with --live: a step fails now (with --expect: a
site drifted), 2 invalid input, 3 with --expect: no site drifted but one could not be read.`;

/**
 * What `enginectl plan` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  var: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  emulator: { type: 'boolean' },
  live: { type: 'boolean' },
  out: { type: 'string' },
  expect: { type: 'boolean' },
  json: { type: 'string' },
  summary: { type: 'string' },
  ci: { type: 'string' },
  history: { type: 'string', multiple: true },
  ...EMULATOR_OPTIONS,
} as const;

export async function planCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('plan', args, OPTIONS);
  if (values.help) {
    io.stdout(`${PLAN_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError('BAD_ARGUMENTS', `plan: expected one pipeline FILE, got ${positionals.length}`);
  const selection = parseSelection(values.only, values.skip);
  // The command's masker: each secret the plan learns registered with the CI's masking before it is
  // used, as run does, and masked in the error the command may end with (cli/ci-masker.ts).
  const masker = ciMasker(chooseCi(io, values.ci), (line) => io.stdout(`${line}\n`));
  io.maskerMade?.(masker);
  if (hasEmulatorOptions(values) && !(values.emulator && values.live))
    throw new UsageError(
      'BAD_ARGUMENTS',
      'plan: --state, --user, --fault and --fail-replication go with --emulator --live',
    );
  await checkStateFiles(values);
  const env = emulatorEnv(values, io.env);
  if (values.out !== undefined && !values.live)
    throw new UsageError('BAD_ARGUMENTS', 'plan: --out goes with --live', {
      hint: 'enginectl plan FILE --live --out plan.json',
    });
  if ((values.expect || values.json !== undefined || values.summary !== undefined) && !values.live)
    throw new UsageError('BAD_ARGUMENTS', 'plan: --expect, --json and --summary go with --live', {
      hint: 'enginectl plan audit.yml --live --expect --json drift.json',
    });
  if (values.expect && values.out !== undefined)
    throw new UsageError('BAD_ARGUMENTS', 'plan: --out saves a plan to run, and a drift audit (--expect) is none', {
      hint: 'audit with --expect --json F; save the plan of a release with --live --out F',
    });
  if (values.json !== undefined && !values.expect)
    throw new UsageError(
      'BAD_ARGUMENTS',
      'plan: --json goes with --expect (the drift audit); --out saves a live plan',
      { hint: 'enginectl plan audit.yml --live --expect --json drift.json' },
    );
  const vars = parseVars(values.var);
  const { pipeline, sources, unsetSecrets } = await loadPipelineFile(
    positionals[0]!,
    { ...io, env },
    { vars, emulator: values.emulator, selection, dryRun: !values.live },
  );
  // Without --live it sends nothing: a secret not set stands in, masked, and is named (app/stand-ins.ts).
  const shown = values.live ? env : withStandIns(env, unsetSecrets);
  // The windows' needs as the run reads them: the p95 of the journals' earlier write durations, of
  // each server at the URL the plan resolves for it.
  const history = await historyOf(values, io, { place: serverPlaces(pipeline, shown, masker), command: 'plan' });
  if (!values.live) {
    const warning = standInWarning(unsetSecrets.map((name) => `secrets.${name}`));
    if (warning) io.stderr(`enginectl: warning: ${warning}\n`);
    const plan = await makePlan(pipeline, shown, {
      selection,
      history,
      masker,
    });
    io.stdout(`plan of "${neutraliseLines(plan.name)}": no request is made\n${neutralise(plan.text)}\n`);
    return ExitCode.ok;
  }
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  const outputs = (['out', 'summary', 'json'] as const).flatMap((flag) =>
    values[flag] === undefined ? [] : [named(`--${flag}`, values[flag], io.cwd)],
  );
  checkOwnFiles(outputs, [
    ...pipelineFiles(positionals[0]!, sources, io.cwd),
    ...stateFiles(values).map((state) => named('an emulator state (--state)', state, io.cwd)),
  ]);
  // The run's clock (a test's simulated one): what a gate reads, and the saved plan's time.
  const clock = io.clock ?? realClock();
  const live = async (emulatorUrl: string | undefined) => {
    const { plan, saved, unpinned } = await preflight(
      { pipeline, sources, vars, selection, env, history, masker },
      { signal: io.signal, emulatorUrl, now: clock.now },
      clock.now(),
    );
    // Interrupted, what was read is partial: no verdict, no saved plan, no audit.
    if (io.signal.aborted) {
      io.stderr('plan: interrupted; what was read is partial, and nothing is saved\n');
      return ExitCode.interrupted;
    }
    if (values.expect) return audit(plan, { file: positionals[0]!, json: values.json, summary: values.summary }, io);
    io.stdout(
      `live plan of "${neutraliseLines(plan.name)}": GET requests only; no write is sent\n${neutralise(plan.text)}\n`,
    );
    io.stdout(`${plan.failsNow} step run(s) fail now, ${plan.wouldWait} would wait\n`);
    if (values.summary !== undefined) await writeAtomic(resolve(io.cwd, values.summary), livePlanMarkdown(plan));
    if (out) {
      // A server whose URL holds a secret, kept without a fingerprint (no ENGINECTL_JOURNAL_KEY): run --plan will refuse the plan.
      for (const [name, server] of unproven(saved.servers))
        io.stderr(`warning: ${neutralise(unprovenWarning(name, server))}\n`);
      if (unpinned) io.stderr(`warning: ${UNPINNED_WARNING}\n`);
      await writeAtomic(out, `${JSON.stringify(saved, null, 2)}\n`);
      io.stdout(neutralise(`plan: ${out} (run it with enginectl run ${positionals[0]!} --plan ${values.out})\n`));
    }
    return plan.failsNow > 0 ? ExitCode.failed : ExitCode.ok;
  };
  return values.emulator ? withEmulatedSites(values, undefined, live) : live(undefined);
}

/** --expect: the live plan read as the fleet's expected state; every rendering written, then exit 1 on drift, 3 when a site could not be read (and none drifted). */
async function audit(
  plan: PlanOutput,
  options: { file: string; json: string | undefined; summary: string | undefined },
  io: CliIO,
): Promise<number> {
  const result = driftAudit(plan, options.file, Date.now());
  io.stdout(`${neutralise(driftText(result))}\n`);
  const markdown = driftMarkdown(result);
  const summaryFile = options.summary === undefined ? undefined : resolve(io.cwd, options.summary);
  if (options.json !== undefined)
    await writeAtomic(resolve(io.cwd, options.json), `${JSON.stringify(result, null, 2)}\n`);
  if (summaryFile) await writeAtomic(summaryFile, markdown);
  // The audit is published as a run is, through one publisher: here its CI's summary and final lines.
  const warnings: string[] = [];
  const failed = await publisher(
    [ciSummaryChannel(chooseCi(io), io.env, (line) => io.stdout(`${line}\n`), { summaryFile })],
    { warn: (m) => warnings.push(m), mask: (text) => text },
  ).ended({
    outcome: result.drifted.length || result.unreachable.length ? 'failure' : 'success',
    markdown: () => markdown,
  });
  for (const problem of [...failed, ...warnings]) io.stderr(`warning: ${neutralise(problem)}\n`);
  return result.drifted.length > 0
    ? ExitCode.failed
    : result.unreachable.length > 0
      ? ExitCode.unreachable
      : ExitCode.ok;
}
