// The core of every action: inputs in, a validated pipeline run, reports, job summary, outputs,
// annotations, PR comment and Deployment out; the run is the CLI's composition too (app/run.ts).
// All it touches is passed in (the Actions toolkit, wrapped so every print is neutralised:
// inert-kit.ts; the GitHub API, the environment, the clock), so tests run it without a runner.
import { attemptOf } from './rerun.ts';
import { reportFilesAt } from '../report/formats.ts';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setUpJournal } from '../app/journal-setup.ts';
import { leavesParked, parkingOf } from '../app/parked.ts';
import { storedJournalNames } from '../app/stored-run.ts';
import { runAndReport } from '../app/run.ts';
import { refuseWritesNoWindowFits } from '../app/window-preflight.ts';
import { windowTime } from '../schedule/window-time.ts';
import { ExitCode } from '../errors.ts';
import { Masker } from '../runner/masker.ts';
import { indentLines } from '../text/neutralise.ts';
import { storeUrlLogin } from '../store/store.ts';
import { parkedOf } from '../runner/result.ts';
import type { ActionDef } from './definitions.ts';
import { commentKey } from './github-records.ts';
import {
  deploymentChannel,
  jobSummaryChannel,
  outputsChannel,
  prCommentChannel,
  reportsLineChannel,
} from './channels.ts';
import { webhookChannel } from '../app/channels/webhook.ts';
import { RunLog } from '../log/run-log.ts';
import { actionsSink } from './actions-sink.ts';
import { booleanInput, checkBooleanInputs, overrideInputs } from './inputs.ts';
import { checkInputVariables } from './input-variables.ts';
import { loadAction, type Loaded } from './action-pipeline.ts';
import { dryRun, dryRunMode } from './dry-run-action.ts';
import { mergeAction } from './merge-action.ts';
import { inertKit } from './inert-kit.ts';
import { endRun, failEarly, inWorkspace } from './action-end.ts';
import { annotationBudget } from './annotation-budget.ts';
import { reportName } from './report-name.ts';
import { leaseToGoOn, storeAndLease, type ActionDeps } from './store-inputs.ts';
import { parkedByDecisionMeanwhile, stillParked } from './still-parked.ts';
import { DecidedMeanwhile } from '../app/decided-meanwhile.ts';
import { runInputs, storeGiven, type RunInputs } from './run-inputs.ts';
import { ACTION_WAYS, STEP_ACTION_WAYS } from './ways-on.ts';
export type { ActionDeps } from './store-inputs.ts';

export async function runAction(def: ActionDef, given: ActionDeps): Promise<number> {
  // Every print neutralised (inert-kit.ts); GitHub shows 10 annotations of each kind a step: the others are counted as the step ends.
  const budget = annotationBudget(inertKit(given.kit));
  const deps: ActionDeps = { ...given, kit: budget.kit };
  const { kit } = deps;
  const masker = new Masker({
    onSecret: (form) => kit.setSecret(form),
    onWeak: (_name, why) => kit.warning(why, { title: 'enginectl' }),
  });
  // Every credential input is masked before anything is printed; every boolean one read before anything runs.
  for (const [name, input] of Object.entries(def.inputs))
    if (input.secret) masker.add(kit.getInput(name), `input ${name}`);
  // A store URL is refused when it carries a login (the store takes none), but the login is a secret all the same.
  const storeLogin = storeUrlLogin(storeGiven(kit, deps.env));
  if (storeLogin) masker.addLogin(storeLogin.username, storeLogin.password, 'the store URL');
  try {
    // A name mistyped in with: (dry_run: true) is refused, never ignored while the run writes.
    checkInputVariables(def, deps.env);
    checkBooleanInputs(def.inputs, kit.getInput);
    if (!def.uses && kit.getInput('merge').trim() !== '') return await mergeAction(deps, masker);
    // Every input's error first, before the pipeline (or the step) is judged.
    const dry = dryRunMode(kit.getInput);
    const inputs = runInputs(kit, deps.env, masker, dry !== 'false');
    const loaded = await loadAction(def, deps, dry === 'true');
    if (dry !== 'false') return await dryRun(def, deps, loaded, masker, dry === 'live');
    return await execute(def, deps, loaded, masker, inputs);
  } catch (error) {
    return await failEarly(def, deps, error, masker);
  } finally {
    budget.end();
  }
}

async function execute(
  def: ActionDef,
  deps: ActionDeps,
  loaded: Loaded,
  masker: Masker,
  { continued, resumeFrom, inDoubt: mode, webhook }: RunInputs,
): Promise<number> {
  const { kit, context } = deps;
  const { pipeline } = loaded;
  const label = masker.mask(String(pipeline.name));

  const logger = new RunLog(actionsSink(kit), {
    where: (run) => {
      const step = pipeline.steps[run.step];
      return def.uses || !step ? undefined : { file: inWorkspace(context, pipeline.file), line: step.position.line };
    },
  });
  // A directory of this step's own: two steps of one kind in a job never share their files.
  const name = reportName(label);
  const base = join(mkdtempSync(join(deps.reportDir, `${name}-`)), name);
  const dir = dirname(base);
  const paths = reportFilesAt(base);
  // Refused before the store, the lease or any call: an override the pipeline does not allow.
  // A single-step action has no override-freeze input: nothing to read.
  const override = 'override-freeze' in def.inputs ? overrideInputs(kit.getInput, pipeline, deps.env) : undefined;
  // This step's attempt of its workflow run: a re-run with a store may go on with an earlier attempt's run (rerun.ts).
  const attempt = attemptOf(deps.env, Object.keys(def.inputs), (n) => kit.getInput(n), masker, loaded);
  const rerun = attempt !== undefined && attempt.attempt > 1 && storeGiven(kit, deps.env) !== '';
  // A write no window can ever fit: refused before the store, the lease, the journal or any call (app/window-preflight.ts).
  refuseWritesNoWindowFits({
    pipeline,
    selection: loaded.selection,
    env: loaded.env,
    now: windowTime(deps),
    override,
    resuming: resumeFrom !== '' || continued !== '' || rerun,
    ways: def.uses ? STEP_ACTION_WAYS : ACTION_WAYS,
  });
  const { stored, taken } = await storeAndLease(deps, {
    pipeline,
    selection: loaded.selection,
    resumeFrom,
    resumeInput: continued ? 'continue' : 'journal',
    base,
    dir,
    masker,
    attempt,
    ways: def.uses ? STEP_ACTION_WAYS : ACTION_WAYS,
  });
  // Every documented output is set: the run's id in the store, empty without one; set before its
  // journal is read, so a resume refused there (a write in doubt) still names the run.
  kit.setOutput('run-id', stored?.runId ?? '');
  const journal = await setUpJournal({
    path: stored ? stored.path : resumeFrom ? resolve(deps.cwd, resumeFrom) : `${base}.journal.jsonl`,
    resume: stored ? stored.resume : resumeFrom !== '',
    force: false,
    inDoubt: mode,
    ways: def.uses ? STEP_ACTION_WAYS : ACTION_WAYS,
    continueRollout: booleanInput(kit.getInput, 'continue-rollout'),
    continueParked: continued !== '',
    ...storedJournalNames(stored),
    verify: { masker, signal: deps.signal, clock: { now: deps.now } },
    pipeline,
    sources: loaded.sources,
    vars: loaded.vars,
    selection: loaded.selection,
    env: deps.env,
    command: `enginectl action ${def.id}`,
    now: deps.now(),
    fs: deps.journalFs,
    warn: (w) => kit.warning(masker.mask(w), { title: 'enginectl' }),
  }).catch(async (error: unknown) => {
    // Still parked (a resume refused, a continue that cannot go on yet): a lease the park kept stays kept.
    await taken?.end({ keep: leavesParked(error, continued !== '') && pipeline.keepLeaseParked === true });
    throw error;
  });
  if (stored) journal.spec.file.replicateTo(stored.replica);
  for (const w of journal.warnings) kit.warning(masker.mask(w), { title: 'enginectl' });
  for (const v of journal.verified) kit.info(indentLines(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`));
  // A decision not yet made: parked again, nothing run; a neutral outcome, not a failure.
  if (stored && (await stillParked(kit, journal, taken, pipeline, masker, { id: stored.runId, label })))
    return ExitCode.ok;
  const environment = deps.kit.getInput('deployment-environment').trim();
  // A stored run's Deployment names the run: the job that goes on with it (continue, journal: RUN_ID) ends that one.
  const run = stored && { id: stored.runId, resumed: resumeFrom !== '' };
  const deployment = environment ? deploymentChannel(deps, label, environment, masker, run) : undefined;
  let holding: typeof taken;
  try {
    holding = await leaseToGoOn(stored, journal, taken, pipeline.keepLeaseParked === true);
  } catch (error) {
    // A decision recorded after this job read the run: still parked with it in force, nothing sent.
    if (!(stored && error instanceof DecidedMeanwhile)) throw error;
    await parkedByDecisionMeanwhile(kit, error, journal, masker, { id: stored.runId, label });
    return ExitCode.ok;
  }
  const full = `${paths.json} (output report) and ${paths.html}`;
  // A run refused before its first call (credentials over plain http://) still ends its Deployment.
  let parkedNow = false;
  const { result, halted, failed } = await runAndReport(
    {
      pipeline,
      env: loaded.env,
      selection: loaded.selection,
      reports: paths,
      journal: journal.spec,
      resume: journal.resume,
      sources: loaded.files,
      vars: loaded.vars,
      lease: holding?.lease,
      park: stored && parkingOf(pipeline),
      windows: { windowOverride: override, ways: ACTION_WAYS },
    },
    {
      masker,
      logger,
      signal: deps.signal,
      clock: { now: deps.now, sleep: deps.sleep, latest: deps.latest },
      stopwatch: deps.stopwatch,
      reportFs: deps.reportFs,
      channels: (reportFiles) => [
        reportFiles,
        reportsLineChannel(kit, masker, base, reportFiles),
        jobSummaryChannel(kit, full),
        prCommentChannel(
          deps,
          commentKey(def, pipeline, loaded.selection),
          masker,
          'the job summary and the JSON/HTML reports of the run',
        ),
        ...(deployment ? [deployment] : []),
        ...(webhook
          ? [webhookChannel(webhook, { env: deps.env, signal: deps.signal, said: (line) => kit.info(line) })]
          : []),
        outputsChannel(def, kit, {
          reportPath: paths.json,
          reportWritten: () => reportFiles.written.includes(paths.json),
          journalPath: journal.spec.file.path,
        }),
      ],
    },
  )
    .catch(async (error: unknown) => {
      await deployment?.notRun(error);
      throw error;
    })
    .then((done) => ((parkedNow = parkedOf(done.result) !== undefined), done))
    .finally(async () => {
      const unsettled = await journal.spec.file.settle();
      if (unsettled) kit.warning(masker.mask(unsettled), { title: 'enginectl' });
      await holding?.end({ keep: parkedNow && pipeline.keepLeaseParked === true && taken !== undefined });
      journal.spec.file.close();
    });
  if (halted) kit.error(masker.mask(halted.describe()), { title: `enginectl: ${halted.code}` });
  return endRun(kit, { done: { result, halted, failed }, masker });
}
