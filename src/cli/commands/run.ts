// Longer than 250 lines: the run command is its flags, their checks and their wiring to src/app, one command read top to bottom.
// `enginectl run FILE`: validates, then runs the pipeline (or prints its plan with --dry-run).
import { REPORT_OPTIONS, REPORT_OPTIONS_HELP, reportPathsOf } from '../../report/formats.ts';
import { ExitCode, interruptedRead, UsageError } from '../../errors.ts';
import { undecodedNameHint } from '../../file-name.ts';
import { formatDuration } from '../../duration.ts';
import { makePlan } from '../../app/plan.ts';
import { standInWarning, withStandIns } from '../../app/stand-ins.ts';
import { ciMasker } from '../ci-masker.ts';
import { checkOwnFiles, named, pipelineFiles } from '../../app/own-files.ts';
import { fullReportOf, preparePaths, REPORT_NOT_WRITTEN, reportOutputs } from '../../app/report-files.ts';
import { runAndReport } from '../../app/run.ts';
import { dropLocalCopy, type LocalCopy } from '../../app/local-copy.ts';
import { refuseWritesNoWindowFits } from '../../app/window-preflight.ts';
import { operatorOf, setUpJournal, type JournalSetup } from '../../app/journal-setup.ts';
import { openStoredRun, storedJournalNames, storeUrlOf } from '../../app/stored-run.ts';
import { fenceToGoOn } from '../../app/fence-to-go-on.ts';
import { takeRunLease, wantedLease } from '../../app/lease-setup.ts';
import { holdStoredRun } from '../../app/run-own-lease.ts';
import { parseInDoubt, type InDoubtMode } from '../../journal/resume.ts';
import { ciSink } from '../../ci/ci-sink.ts';
import { CI_NAMES } from '../../ci/detect.ts';
import type { Channel } from '../../app/channels/channel.ts';
import { ciSummaryChannel, ciVariablesChannel } from '../../app/channels/ci.ts';
import { dotenvChannel } from '../../app/channels/dotenv.ts';
import { webhookChannel, webhookUrl } from '../../app/channels/webhook.ts';
import {
  checkPlan,
  checkPlanAge,
  checkPlanServers,
  DEFAULT_PLAN_MAX_AGE,
  type PlanMaxAge,
} from '../../app/preflight.ts';
import { badPlan, readSavedPlan, type SavedPlan } from '../../app/saved-plan.ts';
import { resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { parseCommandArgs } from '../args.ts';
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
import { loadPipelineFile, parseSelection, parseVars } from '../../app/pipeline-input.ts';
import { realClock, simulatedClock, steadyNow } from '../../app/clock.ts';
import { windowTime } from '../../schedule/window-time.ts';
import { DURATION_LIMIT, MAX_DURATION_MS, parseDuration, shownDuration } from '../../duration.ts';
import { serverPlaces } from '../../app/server-places.ts';
import { clockStart, historyOf, WINDOW_OPTIONS, WINDOW_OPTIONS_HELP, windowOverride } from '../window-options.ts';
import { RunLog, useColour } from '../../log/run-log.ts';
import { summaryLine } from '../../report/summary-line.ts';
import { leavesParked, parkingOf, pendingDecisions, waitLines } from '../../app/parked.ts';
import { parkedHeadline } from '../../runner/park.ts';
import { doubtsLine, parkedOf, undecidedDoubts } from '../../runner/result.ts';
import { neutralise, neutraliseLines } from '../../text/neutralise.ts';
import { runShardCommand, shardDurations, SHARD_OPTIONS_HELP } from '../shard-run.ts';
import { shardSelection } from '../shard-own.ts';
import { CLI_WAYS } from '../../ways-on.ts';

/** What a dry run would leave unwritten or undone. */
const DRY_RUN_CLASH = [
  'journal',
  'resume',
  'continue',
  'report-json',
  'junit',
  'summary',
  'html',
  'dotenv',
  'webhook',
  'plan',
] as const;

/** Why an option does not go with --shard, for its refusal. */
const SHARD_CLASH = {
  resume: "a shard's sites keep their journals in the run store",
  continue: "a shard's sites keep their journals in the run store",
  journal: "a shard's sites keep their journals in the run store",
  'dry-run': "a shard's sites keep their journals in the run store",
  emulator: "a shard's sites keep their journals in the run store",
  lease:
    "a sharded run holds no lease of the pipeline's (each worker holds its index's own): run a pipeline that needs one in one job",
  plan: "a shard's sites keep their journals in the run store",
  'continue-rollout': "a shard's sites keep their journals in the run store",
  only: "a shard's sites are the manifest's (enginectl shard planned them): shard a pipeline of the sites to run",
  skip: "a shard's sites are the manifest's (enginectl shard planned them): shard a pipeline of the sites to run",
  'in-doubt':
    'a site a worker takes over is decided by verify (what it cannot tell fails the site, for an operator), not by a decision given to the whole worker',
  webhook:
    "a worker's sites are a part of the fleet: enginectl report --merge --store URL --run ID --webhook URL posts the fleet's result",
  dotenv:
    "a worker's sites are a part of the fleet: the fleet's result is the merged report's (enginectl report --merge --store URL --run ID --report-json F)",
  'dotenv-var':
    "a worker's sites are a part of the fleet: the fleet's result is the merged report's (enginectl report --merge --store URL --run ID --report-json F)",
} as const;

export const RUN_HELP = `Usage: enginectl run FILE [options]

Validates the pipeline, then runs its steps against the enterprise API.

Options:
  --var NAME=VALUE   override a var (the value is read as YAML: 3, [1001, 1002], text) (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value, one per CI job (repeatable:
                     a key given twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --dry-run          print each call the pipeline would make, secrets masked; make none,
                     write no report or journal (refused beside those flags); a secret not
                     set stands in, masked, and is named in a warning
  --emulator         run against the embedded emulator (as admin/admin); waits pass on a
                     simulated clock, so gates that poll every 2 minutes finish at once; with the
                     sample state, PROD_TOKEN, STAGING_TOKEN and PROD_DEPLOY_PASSWORD default to
                     its sample values. With --emulator, also the emulator's options:
${EMULATOR_OPTIONS_HELP.replace(/^ {2}/gm, '    ')}
${REPORT_OPTIONS_HELP}
  --dotenv F         write step outputs as NAME=VALUE lines (GitLab artifacts:reports:dotenv), at
                     most 20 (GitLab's default limit); what is left out is said
  --dotenv-var NAME  write only these variables to the dotenv file, e.g. VFS_PROD_SUCCESS (repeatable)
  --ci NAME          follow a CI system's conventions: ${CI_NAMES.join(', ')}
                     (default: detected from its environment variables)
  --webhook URL      POST the JSON report (as --report-json writes it) to URL as the run ends; the
                     URL is a secret (masked everywhere); a failure is a warning, never the exit code
  --journal F        append one JSON line per event to F: each call that may change the server
                     is on disk before it is sent (enginectl report F renders it, also after a crash)
  --resume F         run again from the journal F: what succeeded is not sent again (appends to F);
                     with --store, F is the id of a run in the store (its journal is read from there)
  --lease NAME       hold the fleet lease NAME in the run store while the run sends (as lease: in
                     the pipeline, whose ttl and wait it keeps): one run at a time for the fleet
  --take-over        take over an expired lease whose holder left calls verify cannot tell, with
  --reason TEXT      what you checked on the server (recorded in the lease and every report)
  --store URL        keep the run's journal in a run store (file:///PATH or s3://BUCKET/PREFIX; also
                     ENGINECTL_STORE): each call's record is in the store before the call leaves, and
                     the run can be resumed, reported and verified from any machine by its id
  --in-doubt retry|skip|verify|verify-and-retry
                     with --resume: an instance whose call was sent and never answered is sent
                     again (retry) or taken as applied (skip); verify reads its target back first
                     (as enginectl verify does): applied is not sent again, and the run stops on
                     anything else; verify-and-retry also sends again what was not applied
  --force            with --resume: resume although the file, --var, --only or --skip changed
  --continue RUN     with --store: go on with a parked run (exit 75 parked it: a bake longer than
                     park-after, or a decision on-failure: decide asks for): nothing done is sent
                     again, the gates before a carried write run again; a bake not yet elapsed on
                     the run's clock, or a decision not yet made (enginectl decide), parks it again
  --continue-rollout with --resume: go on past the wave the journal's rollout halted at (recorded
                     in the journal as your decision); without it such a resume sends nothing
  --plan F           run the plan enginectl plan --live --out saved: first read again (GET
                     requests only) what it saw, and refuse (exit 2) when the file, vars,
                     selection or that state moved, naming each difference
  --plan-max-age D   with --plan: refuse (exit 2) a plan made longer ago than D, e.g. 24h
                     (default ${DEFAULT_PLAN_MAX_AGE}: 7 days)
${WINDOW_OPTIONS_HELP}
${SHARD_OPTIONS_HELP}
  -h, --help         show this help

Reports are written even when a step fails or the run is interrupted; their paths are checked
before anything runs.

Exit codes: 0 success, 1 a step failed (or a report could not be written), 2 invalid input,
69 (--shard) the store (refused for permissions: 1) or lease failed before the worker sent anything, or it lost its lease (lapsed, or released by an operator: run the index again),
75 parked (with --store: saved, to go on with --continue), 130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP).`;

/**
 * What `enginectl run` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  var: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  emulator: { type: 'boolean' },
  ...EMULATOR_OPTIONS,
  ...REPORT_OPTIONS,
  dotenv: { type: 'string' },
  'dotenv-var': { type: 'string', multiple: true },
  ci: { type: 'string' },
  webhook: { type: 'string' },
  journal: { type: 'string' },
  resume: { type: 'string' },
  store: { type: 'string' },
  lease: { type: 'string' },
  'take-over': { type: 'boolean' },
  reason: { type: 'string' },
  'in-doubt': { type: 'string' },
  'continue-rollout': { type: 'boolean' },
  continue: { type: 'string' },
  force: { type: 'boolean' },
  plan: { type: 'string' },
  'plan-max-age': { type: 'string' },
  shard: { type: 'string' },
  run: { type: 'string' },
  'shard-wait': { type: 'string' },
  'shard-ttl': { type: 'string' },
  ...WINDOW_OPTIONS,
} as const;

export async function runPipelineCommand(args: string[], io: CliIO): Promise<number> {
  // A stored run's local copy of its journal goes when the command ends, however it ends (app/local-copy.ts).
  const copy: LocalCopy = {};
  try {
    return await runPipeline(args, io, copy);
  } finally {
    dropLocalCopy(copy);
  }
}

async function runPipeline(args: string[], io: CliIO, copy: LocalCopy): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', args, OPTIONS);
  if (values.help) {
    io.stdout(`${RUN_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError('BAD_ARGUMENTS', `run: expected one pipeline FILE, got ${positionals.length}`, {
      hint: 'enginectl run pipelines/demo.yml',
    });
  const file = positionals[0]!;
  // A worker of a sharded run: what does not go with --shard is refused before the store is read or the pipeline loaded.
  if (values.shard !== undefined) {
    const clash = (
      [
        'resume',
        'continue',
        'journal',
        'dry-run',
        'emulator',
        'lease',
        'plan',
        'continue-rollout',
        'only',
        'skip',
        'in-doubt',
        'webhook',
        'dotenv',
        'dotenv-var',
      ] as const
    ).find((k) => values[k] !== undefined && values[k] !== false);
    if (clash)
      throw new UsageError('BAD_ARGUMENTS', `run: --shard and --${clash} do not go together: ${SHARD_CLASH[clash]}`, {
        hint:
          clash === 'in-doubt'
            ? "enginectl verify --store URL --run SITE_RUN reads again what a site's run left in doubt; check the call on the server"
            : 'enginectl run FILE --store URL --run ID --shard I/N',
      });
  }
  // A dry run sends nothing and writes nothing: an output or a journal asked of it would be silently missing.
  if (values['dry-run']) {
    const given = values as Record<string, unknown>;
    const ignored = DRY_RUN_CLASH.find((k) => given[k] !== undefined && given[k] !== false);
    if (ignored)
      throw new UsageError(
        'BAD_ARGUMENTS',
        `run: --dry-run and --${ignored} do not go together: a dry run only prints the calls it would make`,
        {
          hint: 'drop --dry-run to run and write it, or use enginectl plan FILE (--live reads the servers, --out saves the plan)',
        },
      );
  }
  const planMaxAge = planMaxAgeOf(values);
  const selection = parseSelection(values.only, values.skip);
  const ci = chooseCi(io, values.ci);
  if (hasEmulatorOptions(values) && !values.emulator)
    throw new UsageError('BAD_ARGUMENTS', 'run: --state, --user, --fault and --fail-replication go with --emulator');
  await checkStateFiles(values);
  io = { ...io, env: emulatorEnv(values, io.env) };
  const vars = parseVars(values.var);
  const clock = clockStart(values);
  // A static shard's worker needs only its sites' secrets (the manifest says which they are), and,
  // when it may be elected to run the gates between waves, those of the waves analysed.
  const storeGiven = storeUrlOf(values.store, io.env);
  // A worker's durations are read before its manifest (shard-own.ts): bad input is said before the store is.
  if (values.shard !== undefined) shardDurations(values);
  const shard =
    values.shard === undefined ? undefined : await shardSelection(values as { shard: string }, storeGiven, io);
  const load = (narrowed: typeof selection | undefined) =>
    loadPipelineFile(file, io, {
      vars,
      emulator: values.emulator,
      selection: narrowed ?? selection,
      dryRun: values['dry-run'],
    });
  let loaded = await load(shard?.owned);
  if (shard?.analysed && (loaded.pipeline.rollout?.analysis?.gates.length ?? 0) > 0)
    loaded = await load(shard.analysed);
  const { pipeline, sources } = loaded;
  // Windows and freezes (window-options.ts): checked before anything is opened.
  const windows = { override: windowOverride(pipeline, values, io.env), clock };
  // With a run store, the journal is the store's (--resume names a run of it); the local file is its copy.
  const storeUrl = storeGiven;
  // A worker of a sharded run: each site a stored run of its own (cli/shard-run.ts).
  if (values.shard !== undefined) {
    return runShardCommand(
      {
        file,
        values: { ...values, shard: values.shard },
        storeUrl,
        pipeline,
        sources,
        vars,
        reports: reportPathsOf(values),
        ci,
        windowOverride: windows.override,
      },
      io,
    );
  }
  for (const k of ['run', 'shard-wait', 'shard-ttl'] as const)
    if (values[k] !== undefined)
      throw new UsageError('BAD_ARGUMENTS', `run: --${k} goes with --shard I/N`, {
        hint: 'enginectl run FILE --store URL --run ID --shard I/N',
      });
  if (values.continue !== undefined && (storeUrl === undefined || values.resume !== undefined))
    throw new UsageError(
      'BAD_ARGUMENTS',
      `run: --continue RUN goes on with a parked run of a run store: ${values.resume !== undefined ? 'drop --resume' : 'give --store URL (or ENGINECTL_STORE)'}`,
      { hint: 'enginectl run FILE --store s3://BUCKET/PREFIX --continue RUN' },
    );
  if (values.continue !== undefined) values.resume = values.continue;
  const stored =
    storeUrl === undefined || values['dry-run']
      ? undefined
      : await openStoredRun({
          url: storeUrl,
          resumeId: values.resume,
          journal: values.journal === undefined ? undefined : resolve(io.cwd, values.journal),
          cwd: io.cwd,
          env: io.env,
          tmpdir: tmpdir(),
          now: Date.now(),
          signal: io.signal,
        });
  // The copy laid in the temporary directory (no --journal given) is this command's, removed as it ends.
  if (stored && values.journal === undefined) copy.path = stored.path;
  const journalWanted = journalArgs(
    stored ? { ...values, journal: stored.path, resume: stored.resume ? stored.path : undefined } : values,
    io,
  );
  const given = reportPathsOf(values);
  const dotenv = values.dotenv === undefined ? undefined : resolve(io.cwd, values.dotenv);
  checkOwnFiles(
    [
      ...reportOutputs(given, io.cwd),
      ...(values.dotenv === undefined ? [] : [named('--dotenv', values.dotenv, io.cwd)]),
    ],
    [
      ...pipelineFiles(file, sources, io.cwd),
      ...(journalWanted
        ? [
            {
              role: `the journal (${journalWanted.resume ? '--resume' : '--journal'})`,
              given: (values.resume ?? values.journal)!,
              path: journalWanted.path,
            },
          ]
        : []),
      ...(values.plan === undefined ? [] : [named('the saved plan (--plan)', values.plan, io.cwd)]),
      ...stateFiles(values).map((state) => named('an emulator state (--state)', state, io.cwd)),
    ],
  );
  // After the paths are known to be apart: checking a report's path makes its directory.
  const paths = await preparePaths(given, io.cwd);
  const planned = values.plan === undefined ? undefined : await readPlanFile(values.plan, io);
  // Too old (or dated after this clock): refused before anything is read, on the run's clock.
  if (planned) checkPlanAge(planned, values.plan!, (io.clock ?? realClock()).now(), planMaxAge);
  // The run's one masker (cli/ci-masker.ts), from its first secret learnt (the saved plan's check, the
  // dry run's plan) to its end: each secret registered with the CI's masking as it is learnt, and masked
  // in the error the run may end with. A dry run, which sends nothing, warns of no short secret.
  const logger = new RunLog(ciSink(ci, io.stdout, Date.now), { colour: useColour(io.stdoutIsTTY, io.env), where });
  const masker = ciMasker(
    ci,
    (line) => io.stdout(`${line}\n`),
    values['dry-run'] ? {} : { onWeak: (_name, why) => logger.warn(undefined, why) },
  );
  io.maskerMade?.(masker);
  // Earlier write durations: --history, and the store's latest runs when the pipeline has windows or
  // freezes; of each server at the URL this run calls it at, with the run's masker as its run record masks it.
  const history = await historyOf(values, io, {
    place: serverPlaces(pipeline, io.env, masker),
    store: pipeline.schedule && stored?.store,
  });
  // --plan against another server than the plan's: refused before any request carries it this run's credentials.
  if (planned)
    await checkPlanServers(
      planned,
      values.plan!,
      { pipeline, sources, vars, selection, env: io.env, masker },
      values.emulator === true,
      Date.now(),
    );

  if (values['dry-run']) {
    // It sends nothing: a secret not set stands in, masked, and is named (app/stand-ins.ts).
    const warning = standInWarning(loaded.unsetSecrets.map((name) => `secrets.${name}`));
    if (warning) io.stderr(`enginectl: warning: ${warning}\n`);
    const plan = await makePlan(pipeline, withStandIns(io.env, loaded.unsetSecrets), {
      selection,
      masker,
    });
    io.stdout(`dry run of "${neutraliseLines(plan.name)}": no request is made\n${neutralise(plan.text)}\n`);
    return ExitCode.ok;
  }

  // A write no window can ever fit: refused now, before the lease, the journal or any request (app/window-preflight.ts).
  refuseWritesNoWindowFits({
    pipeline,
    selection,
    env: io.env,
    now: values.emulator ? (windows.clock ?? Date.now()) : windowTime(io.clock ?? realClock()),
    history,
    override: windows.override,
    resuming: journalWanted?.resume === true,
  });

  const webhook =
    values.webhook === undefined ? undefined : webhookUrl(values.webhook, masker, '--webhook', 'BAD_ARGUMENTS');
  function where(run: { step: number }) {
    return { file, line: pipeline.steps[run.step]?.position.line, col: pipeline.steps[run.step]?.position.col };
  }
  // The fleet lease, in the store: taken before anything is opened or sent, queued up to its wait.
  const leaseWanted = wantedLease(pipeline, values.lease);
  if (leaseWanted && !stored && !values['dry-run'])
    throw new UsageError(
      'BAD_ARGUMENTS',
      `run: the lease ${leaseWanted.name} lives in a run store: give --store URL (or ENGINECTL_STORE)`,
      { hint: 'enginectl run FILE --store s3://BUCKET/PREFIX (or file:///PATH a shared directory)' },
    );
  if (values['take-over'] && (!leaseWanted || values.reason === undefined || values.reason.trim() === ''))
    throw new UsageError(
      'BAD_ARGUMENTS',
      'run: --take-over takes over an expired lease, with --reason "what you checked" (recorded)',
    );
  // What each lease this runner takes is told of it: one set for its fleet lease and its own.
  const runner = {
    pipeline,
    env: io.env,
    masker,
    signal: io.signal,
    clock: realClock(),
    say: (m: string) => logger.warn(undefined, m),
  };
  const taken =
    leaseWanted && stored
      ? await takeRunLease({
          ...runner,
          store: stored.store,
          lease: leaseWanted,
          selection,
          runId: stored.runId,
          takeOver: values['take-over'] ? { reason: values.reason!, by: operatorOf(io.env) } : undefined,
        })
      : undefined;
  // Every runner of a stored run holds its own lease (decide and any other runner of the run refused
  // meanwhile), taken before its first record, before its journal is read (a resume's read again
  // once it is held) or anything in doubt verified or decided: a live runner of the run holds it
  // (refused, JOURNAL_LOCKED), its call in flight is not in doubt.
  const holding = await holdStoredRun(stored, taken, runner, leaseWanted?.ttlMs);
  // Opened (and locked) last, once every other input was checked; closed whatever happens.
  // A journal refused (a call in doubt, a changed file) gives the lease back at once.
  const journal: JournalSetup | undefined =
    journalWanted &&
    (await setUpJournal({
      ...journalWanted,
      ways: CLI_WAYS,
      pipeline,
      sources,
      vars,
      selection,
      env: io.env,
      command: `enginectl run ${file}`,
      ...storedJournalNames(stored),
      // The run's clock: a decision's timeout (decide --after) is taken on it.
      now: (io.clock ?? realClock()).now(),
      verify: { masker, signal: io.signal, clock: io.clock ?? realClock() },
      warn: (w) => logger.warn(undefined, w),
    }).catch(async (error: unknown) => {
      // Still parked (a resume refused, a continue that cannot go on yet): a lease the park kept stays kept.
      const keep = leavesParked(error, journalWanted.continueParked === true);
      await holding?.end({ keep: keep && pipeline.keepLeaseParked === true && taken !== undefined });
      throw error;
    }));
  if (stored && journal) {
    journal.spec.file.replicateTo(stored.replica);
    io.stdout(
      `run: ${stored.runId} in ${neutralise(stored.store.url)}${stored.resume ? ' (resumed from the store)' : ''}\n`,
    );
  }
  for (const w of journal?.warnings ?? []) logger.warn(undefined, w);
  // The embedded emulator keeps no state between runs: what a carried instance wrote is not in it.
  if (values.emulator && journal?.resume && journal.resume.carried.size > 0) {
    logger.warn(
      undefined,
      `--resume with --emulator: the emulator starts from its sample state (or --state), not from what the journal's run left: the ${journal.resume.carried.size} instance(s) carried from it are not applied in it, so a check of what they wrote reads a state without them`,
    );
  }
  for (const v of journal?.verified ?? [])
    io.stdout(`${neutraliseLines(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`)}\n`);
  let keepLease = false;
  let savedLine: ((kept: boolean) => string) | undefined;
  // --continue of a run whose decision is not made yet: parked again, nothing run or sent.
  const pending = journal?.parked ? pendingDecisions(journal.parked) : [];
  if (journal?.parked && pending.length > 0) {
    io.stdout(
      `still parked: ${waitLines(pending)
        .map((l) => neutraliseLines(l))
        .join('\n  ')}\n`,
    );
    for (const timeout of journal.timeouts ?? [])
      io.stdout(`${neutraliseLines(`decided with a timeout: ${timeout}`)}\n`);
    io.stdout(`decide first: enginectl decide --store URL --run ${stored!.runId}\n`);
    keepLease = pipeline.keepLeaseParked === true;
    journal.spec.file.close();
    await holding?.end({ keep: keepLease });
    return ExitCode.parked;
  }
  // Going on with a stored run: its leases held (its own, and the fleet's), its journal fenced first (app/stored-run.ts).
  await fenceToGoOn(stored, journal, holding, pipeline.keepLeaseParked === true && taken !== undefined);
  const execute = async (emulatorUrl: string | undefined, clock: ReturnType<typeof realClock>) => {
    // --plan: the state the plan saw is read again before anything is sent; a stale plan is refused.
    if (planned)
      await checkPlan(
        planned,
        values.plan!,
        { pipeline, sources, vars, selection, env: io.env, masker },
        { signal: io.signal, emulatorUrl, now: clock.now },
        clock.now(),
      );
    const print = (line: string) => io.stdout(`${line}\n`);
    const { result, failed, halted } = await runAndReport(
      {
        pipeline,
        env: io.env,
        selection,
        reports: paths,
        emulatorUrl,
        journal: journal?.spec,
        resume: journal?.resume,
        sources,
        vars,
        lease: holding?.lease,
        windows: { history, windowOverride: windows.override },
        park: stored && parkingOf(pipeline),
      },
      {
        masker,
        logger,
        signal: io.signal,
        clock,
        // Reports time what really passed, not the emulator's simulated waits.
        stopwatch: io.stopwatch ?? steadyNow,
        // The terminal's lines, the report files, the CI's variables, dotenv, the webhook, the CI's summary and final lines.
        channels: (reportFiles): Channel[] => [
          reportFiles,
          {
            name: 'terminal',
            started: ({ name }) =>
              print(
                `running "${neutraliseLines(name)}" (${pipeline.steps.length} step${pipeline.steps.length === 1 ? '' : 's'})${emulatorUrl ? ` against the embedded emulator at ${emulatorUrl}` : ''}`,
              ),
            // After the files: a summary written to standard output comes before the run's last line.
            ended: ({ report }) => {
              if (report) print(summaryLine(report));
              for (const path of reportFiles.written) print(`report: ${neutralise(path)}`);
            },
          },
          ciVariablesChannel(ci, print, (m) => logger.warn(undefined, m)),
          ...(dotenv
            ? [
                dotenvChannel(dotenv, {
                  only: values['dotenv-var'],
                  warn: (m) => logger.warn(undefined, m),
                  said: (path) => print(`outputs: ${neutralise(path)}`),
                }),
              ]
            : []),
          ...(webhook ? [webhookChannel(webhook, { env: io.env, signal: io.signal, said: print })] : []),
          // Last: Azure's final lines end the task.
          ciSummaryChannel(ci, io.env, print, { summaryFile: paths.summary, fullReport: fullReportOf(paths) }),
        ],
      },
    );
    for (const failure of failed) io.stderr(`enginectl: ${REPORT_NOT_WRITTEN.code}: ${neutralise(failure)}\n`);
    if (halted) {
      io.stderr(`enginectl: ${halted.code}: ${neutralise(masker.mask(halted.describe()))}\n`);
      return halted.exitCode;
    }
    const parked = parkedOf(result);
    if (parked && !halted) {
      keepLease = pipeline.keepLeaseParked === true;
      print(neutraliseLines(parkedHeadline(parked)));
      for (const line of waitLines(parked.waits)) print(`  ${neutraliseLines(line)}`);
      const goOn = `enginectl run ${neutralise(file)} --store URL --continue ${stored!.runId}`;
      // A window park with a call in doubt (its retry waits for the window): the continue needs --in-doubt.
      const doubts = parked.for === 'window' ? undecidedDoubts(result.steps).length : 0;
      const decided = doubts
        ? ` --in-doubt skip (it was applied) or --in-doubt retry (it was not), once you checked on the server what ${doubts} call${doubts === 1 ? '' : 's'} in doubt did,`
        : '';
      const then = `${parked.for === 'window' ? `${goOn}${decided} at or after ${new Date(parked.until!).toISOString()}` : `enginectl decide --store URL --run ${stored!.runId}; then ${goOn}`}`;
      // Said once the lease was kept (or not: its park record refused, said above), as the run ends.
      savedLine = (kept) =>
        `the run is saved${taken ? `, the lease ${keepLease ? (kept ? "kept for this run's continue (until its ttl)" : 'not kept') : kept ? 'released' : 'not released'}` : ''}: ${then}`;
      return ExitCode.parked;
    }
    if (result.outcome === 'cancelled') return ExitCode.interrupted;
    const doubts = undecidedDoubts(result.steps);
    if (result.outcome === 'success' && doubts.length > 0) print(`✖ ${doubtsLine(doubts)}`);
    return result.outcome === 'success' && failed.length === 0 && doubts.length === 0 ? ExitCode.ok : ExitCode.failed;
  };

  if (journal)
    io.stdout(
      `journal: ${neutralise(journal.spec.file.path)}${journal.resume ? ` (resuming: ${journal.resume.carried.size} instance(s) done in an earlier run are not run again)` : ''}\n`,
    );

  try {
    if (!values.emulator) return await execute(undefined, io.clock ?? realClock());
    const clock = simulatedClock(windows.clock, io.emulatorTime);
    // Loaded only for --emulator: a run against a real server does not initialise it.
    const code = await withEmulatedSites(values, clock.now, (url) => execute(url, clock));
    if (clock.advanced() > 0)
      io.stdout(`(simulated clock: waits took ${formatDuration(clock.advanced())} of emulator time)\n`);
    return code;
  } finally {
    // What the run wrote after its last durable record goes to the store too, before the file closes
    // and before the run is let go: a runner that holds it next reads every record of this one.
    const unsettled = await journal?.spec.file.settle();
    if (unsettled) logger.warn(undefined, unsettled);
    // The local copy holds records the store does not: kept, as the warning says.
    copy.keep = unsettled !== undefined;
    const ended = await holding?.end({ keep: keepLease && taken !== undefined });
    if (savedLine) io.stdout(`${savedLine(ended !== false)}\n`);
    journal?.spec.file.close();
  }
}

/** The saved plan of --plan, read and checked before anything is opened. */
async function readPlanFile(path: string, io: CliIO): Promise<SavedPlan> {
  const text = await io.readFile(resolve(io.cwd, path)).catch((error: NodeJS.ErrnoException) => {
    throw (
      interruptedRead(io.signal, `--plan ${path}: reading the saved plan`) ??
      withHint(badPlan(path, `cannot read it (${error.code ?? error.message})`), undecodedNameHint(path, error))
    );
  });
  return readSavedPlan(text, path);
}

/** --plan-max-age D (with --plan only), or the default. */
function planMaxAgeOf(values: { plan?: string | undefined; 'plan-max-age'?: string | undefined }): PlanMaxAge {
  const given = values['plan-max-age'];
  if (given === undefined) return { ms: parseDuration(DEFAULT_PLAN_MAX_AGE)! };
  if (values.plan === undefined)
    throw new UsageError('BAD_ARGUMENTS', 'run: --plan-max-age goes with --plan F', {
      hint: 'enginectl run FILE --plan plan.json --plan-max-age 24h',
    });
  const ms = parseDuration(given);
  if (!ms || ms > MAX_DURATION_MS)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `run: --plan-max-age ${shownDuration(given)}: ${ms === 0 ? 'must be more than 0' : ms ? DURATION_LIMIT : 'not a duration'}`,
      {
        hint: 'write 30m, 24h or 168h (7 days)',
      },
    );
  return { ms, given };
}

/** `error` with `hint` in place of its own, when there is one. */
function withHint(error: UsageError, hint: string | undefined): UsageError {
  return hint === undefined ? error : new UsageError(error.code, error.message, { hint });
}

/** --journal, --resume, --in-doubt, --force: checked before anything is opened. */
function journalArgs(
  values: {
    journal?: string | undefined;
    resume?: string | undefined;
    'in-doubt'?: string | undefined;
    force?: boolean | undefined;
    emulator?: boolean | undefined;
    'continue-rollout'?: boolean | undefined;
    continue?: string | undefined;
  },
  io: CliIO,
):
  | {
      path: string;
      resume: boolean;
      force: boolean;
      inDoubt: InDoubtMode | undefined;
      continueRollout?: boolean;
      continueParked?: boolean;
    }
  | undefined {
  if (values['continue-rollout'] && values.resume === undefined)
    throw new UsageError('BAD_ARGUMENTS', '--continue-rollout goes with --resume JOURNAL', {
      hint: 'enginectl run FILE --resume run.journal.jsonl --continue-rollout',
    });
  const decision = values['in-doubt'] === undefined ? undefined : parseInDoubt(values['in-doubt'], '--in-doubt');
  if (decision?.startsWith('verify') && values.emulator)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `--in-doubt ${decision} reads the servers of the pipeline: the embedded emulator of --emulator starts afresh, with nothing to read back`,
      { hint: "verify against the servers the journal's run called (without --emulator)" },
    );
  if (values.resume === undefined) {
    if (decision !== undefined || values.force)
      throw new UsageError(
        'BAD_ARGUMENTS',
        `${decision !== undefined ? '--in-doubt' : '--force'} goes with --resume JOURNAL`,
      );
    return values.journal === undefined
      ? undefined
      : { path: resolve(io.cwd, values.journal), resume: false, force: false, inDoubt: undefined };
  }
  const path = resolve(io.cwd, values.resume);
  if (values.journal !== undefined && resolve(io.cwd, values.journal) !== path)
    throw new UsageError(
      'BAD_ARGUMENTS',
      '--resume appends to the journal it reads: drop --journal, or give the same file',
    );
  return {
    path,
    resume: true,
    force: values.force === true,
    inDoubt: decision,
    continueRollout: values['continue-rollout'] === true,
    continueParked: values.continue !== undefined,
  };
}
