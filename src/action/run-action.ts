// The core of every action: inputs in, a validated pipeline run, reports, job summary, outputs,
// annotations, PR comment and Deployment out. The run itself is the one composition the CLI
// uses too (app/run.ts); everything this touches is passed in (the Actions toolkit, the GitHub
// API, the environment, the clock), so tests run it without a runner.
import { EVERY_INSTANCE, type Selection } from '../pipeline/selection.ts';
import { REPORT_FORMATS, reportFilesAt } from '../report/formats.ts';
import { mkdtempSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { includeReader, parseSelection, parseVars, readPipelineText } from '../app/pipeline-input.ts';
import { setUpJournal } from '../app/journal-setup.ts';
import { openStoredRun, STORE_VARIABLE } from '../app/stored-run.ts';
import { leaseNames, selectedValues, takeLease } from '../app/lease-setup.ts';
import { parseInDoubt } from '../journal/resume.ts';
import type { Source } from '../app/pipeline-input.ts';
import { runAndReport } from '../app/run.ts';
import { describeError, EnginectlError, ExitCode, exitCodeOf, UsageError } from '../errors.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import { loadPipeline } from '../pipeline/load.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { renderMarkdown, type Report } from '../report/index.ts';
import { Masker } from '../runner/masker.ts';
import type { Env } from '../runner/scope.ts';
import type { ActionDef } from './definitions.ts';
import type { DeploymentState } from './github-api.ts';
import { commentKey, finishDeployment, prComment, startDeployment } from './github-records.ts';
import type { GitHubContext } from './github-context.ts';
import { RunLog } from '../log/run-log.ts';
import { actionsSink } from './actions-sink.ts';
import { booleanInput, varsLines } from './inputs.ts';
import { actionServer, stepPipeline } from './step-pipeline.ts';
import { dryRun, dryRunMode } from './dry-run-action.ts';
import { COMMENT_LIMIT, mergeAction, type MergeDeps } from './merge-action.ts';
import { neutralise } from '../text/neutralise.ts';

export interface ActionDeps extends MergeDeps {
  env: Env;
  signal: AbortSignal;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export interface Loaded {
  pipeline: Pipeline;
  /** What identifies the run in its journal: the files it read (or the inputs). */
  sources: Source[];
  vars: Record<string, unknown>;
  env: Env;
  selection: Selection;
  /** The pipeline's files, whose hash the reports carry; none for a single-step action (its inputs hold credentials). */
  files?: Source[] | undefined;
}

export async function runAction(def: ActionDef, deps: ActionDeps): Promise<number> {
  const { kit } = deps;
  const masker = new Masker({ onSecret: (form) => kit.setSecret(form), onWeak: (_name, why) => kit.warning(why, { title: 'enginectl' }) });
  // Every credential input is masked before anything is printed.
  for (const [name, input] of Object.entries(def.inputs)) if (input.secret) masker.add(kit.getInput(name), `input ${name}`);
  const say = (text: string) => kit.info(neutralise(masker.mask(text)));
  try {
    if (!def.uses && kit.getInput('merge').trim() !== '') return await mergeAction(deps, masker);
    const loaded = await load(def, deps);
    const dry = dryRunMode(kit.getInput);
    if (dry !== 'false') return await dryRun(def, deps, loaded, masker, dry === 'live');
    return await execute(def, deps, loaded, masker);
  } catch (error) {
    return await failEarly(def, deps, error, masker, say);
  }
}

async function load(def: ActionDef, deps: ActionDeps): Promise<Loaded> {
  const get = deps.kit.getInput;
  const env = deps.env;
  const server = actionServer(get, env);
  if (def.uses) {
    const pipeline = stepPipeline(def, get, server);
    return { pipeline, sources: [{ path: `inputs of ${def.id}`, text: JSON.stringify(pipeline.steps[0]!.with) }], vars: {}, env, selection: EVERY_INSTANCE };
  }
  const file = get('pipeline').trim();
  if (!file) throw new UsageError('BAD_INPUT', 'input pipeline is required', { hint: 'with: { pipeline: pipelines/multi-target-release.yml }' });
  const text = await readPipelineText(resolve(deps.cwd, file), { readFile: deps.readFile }).catch((error: unknown) => {
    if (error instanceof PipelineInvalid) throw new PipelineInvalid(error.diagnostics.map((d) => ({ ...d, file })), undefined);
    throw error;
  });
  const vars = parseVars(varsLines(get));
  const selection = parseSelection(varsLines(get, 'only'), varsLines(get, 'skip'));
  const sources: Source[] = [{ path: basename(file), text }];
  const { pipeline } = loadPipeline({ file, text, env, defaultServer: server, vars, selection, readInclude: includeReader(resolve(deps.cwd, dirname(file)), sources) });
  return { pipeline, sources, vars, env, selection, files: sources };
}

async function execute(def: ActionDef, deps: ActionDeps, loaded: Loaded, masker: Masker): Promise<number> {
  const { kit, context } = deps;
  const { pipeline } = loaded;
  const label = masker.mask(String(pipeline.name));

  const logger = new RunLog(actionsSink(kit), {
    where: (run) => {
      const step = pipeline.steps[run.step];
      return def.uses || !step ? undefined : { file: inWorkspace(context, pipeline.file), line: step.position.line };
    },
  });
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'pipeline';
  // A directory of this step's own: two steps of one kind in a job never share their files.
  const dir = mkdtempSync(join(deps.reportDir, `${slug.startsWith('enginectl') ? slug : `enginectl-${slug}`}-`));
  const base = join(dir, slug.startsWith('enginectl') ? slug : `enginectl-${slug}`);
  const paths = reportFilesAt(base);
  const resumeFrom = kit.getInput('journal').trim();
  const inDoubt = kit.getInput('in-doubt').trim();
  const mode = inDoubt === '' ? undefined : parseInDoubt(inDoubt, 'input in-doubt:');
  if (mode && !resumeFrom) throw new UsageError('BAD_INPUT', 'input in-doubt goes with input journal (the journal to resume from)');
  // With a store, the journal is the store's, and journal: names a run of it to resume.
  const storeUrl = kit.getInput('store').trim() || deps.env[STORE_VARIABLE];
  const stored = storeUrl ? await openStoredRun({ url: storeUrl, resumeId: resumeFrom || undefined, journal: `${base}.journal.jsonl`, cwd: deps.cwd, env: deps.env, tmpdir: dir, now: deps.now() }) : undefined;
  const leaseName = kit.getInput('lease').trim();
  const leaseWanted = leaseName ? { ...pipeline.lease, name: leaseName, ttlMs: pipeline.lease?.ttlMs ?? 10 * 60_000, waitMs: pipeline.lease?.waitMs ?? 0 } : pipeline.lease;
  if (leaseWanted && !stored) throw new UsageError('BAD_INPUT', `the lease ${leaseWanted.name} lives in a run store: set input store (or ENGINECTL_STORE)`);
  const taken = leaseWanted && stored ? await takeLease({ store: stored.store, lease: leaseWanted, names: leaseNames(leaseWanted, selectedValues(pipeline, loaded.selection, leaseWanted.over)), runId: stored.runId, pipeline, env: deps.env, masker, signal: deps.signal, clock: { now: deps.now, sleep: deps.sleep }, say: (m) => kit.warning(masker.mask(m), { title: 'enginectl' }) }) : undefined;
  const journal = await setUpJournal({
    path: stored ? stored.path : resumeFrom ? resolve(deps.cwd, resumeFrom) : `${base}.journal.jsonl`,
    resume: stored ? stored.resume : resumeFrom !== '',
    force: false,
    inDoubt: mode,
    continueRollout: booleanInput(kit.getInput, 'continue-rollout', false),
    verify: { masker, signal: deps.signal },
    pipeline,
    sources: loaded.sources,
    vars: loaded.vars,
    selection: loaded.selection,
    env: deps.env,
    command: `enginectl action ${def.id}`,
    now: deps.now(),
    warn: (w) => kit.warning(masker.mask(w), { title: 'enginectl' }),
  }).catch(async (error: unknown) => {
    await taken?.end();
    throw error;
  });
  if (stored) journal.spec.file.replicateTo(stored.replica);
  // Every documented output is set: the run's id in the store, empty without one.
  kit.setOutput('run-id', stored?.runId ?? '');
  for (const w of journal.warnings) kit.warning(masker.mask(w), { title: 'enginectl' });
  for (const v of journal.verified) kit.info(neutralise(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`));
  const environment = deps.kit.getInput('deployment-environment').trim();
  const deployment = environment ? await startDeployment(deps, label, environment, masker).catch((error: unknown) => (journal.spec.file.close(), Promise.reject(error))) : undefined;
  // A run refused before its first call (credentials over plain http://) still ends its Deployment.
  const { result, rendered, failed, halted } = await runAndReport(
    { pipeline, env: loaded.env, selection: loaded.selection, reports: paths, journal: journal.spec, resume: journal.resume, sources: loaded.files, vars: loaded.vars, lease: taken?.lease },
    { masker, logger, signal: deps.signal, clock: { now: deps.now, sleep: deps.sleep } },
  )
    .catch(async (error: unknown) => {
      if (deployment) await finishDeployment(deps, deployment, 'error', `${label}: not run (${error instanceof EnginectlError ? error.code : 'internal error'})`, environment, masker);
      throw error;
    })
    .finally(async () => {
      await taken?.end();
      const unsettled = await journal.spec.file.settle();
      if (unsettled) kit.warning(masker.mask(unsettled), { title: 'enginectl' });
      journal.spec.file.close();
    });
  if (halted) kit.error(masker.mask(halted.describe()), { title: `enginectl: ${halted.code}` });
  for (const f of failed) kit.warning(`a report could not be written: ${f}`, { title: 'enginectl' });
  kit.info(masker.mask(`${result.outcome}: reports in ${base}.{${REPORT_FORMATS.map((f) => f.extension).join(',')}}`));

  if (booleanInput(kit.getInput, 'summary', true)) await kit.appendSummary(rendered.summary(`${paths.json} (output report) and ${paths.html}`));
  await prComment(deps, commentKey(def, pipeline, loaded.selection), renderMarkdown(rendered.report, { limit: COMMENT_LIMIT, fullReport: 'the job summary and the JSON/HTML reports of the run' }), masker);
  if (deployment) {
    const state: DeploymentState = result.outcome === 'success' ? 'success' : result.outcome === 'failure' ? 'failure' : 'error';
    await finishDeployment(deps, deployment, state, `${result.name}: ${result.outcome}`, environment, masker);
  }

  // The result is masked as values: its outputs are set as they are.
  kit.setOutput('outcome', result.outcome);
  kit.setOutput('report', failed.some((f) => f.includes(paths.json)) ? '' : paths.json);
  kit.setOutput('outputs', JSON.stringify(outputsOf(rendered.report)));
  kit.setOutput('journal', journal.spec.file.path);
  if (def.uses) {
    // Every documented output of the step (an output may share its name with an input: summary).
    const outputs = result.steps[0]?.outputs ?? {};
    for (const name of Object.keys(def.outputs)) {
      if (['report', 'outcome', 'outputs', 'journal'].includes(name) || !(name in outputs)) continue;
      const value = outputs[name];
      kit.setOutput(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  if (halted) {
    kit.setFailed(masker.mask(`"${result.name}" stopped: ${halted.message}`));
    return ExitCode.failed;
  }
  if (result.outcome === 'success') return ExitCode.ok;
  const failedSteps = result.steps.filter((s) => s.outcome === 'failure' && !s.continuedOnError).map((s) => s.name);
  kit.setFailed(result.outcome === 'cancelled' ? `"${result.name}" was cancelled` : `"${result.name}" failed: ${failedSteps.join(', ') || 'a step failed'}`);
  return result.outcome === 'cancelled' ? ExitCode.interrupted : ExitCode.failed;
}

/** Every step's outputs by id (step-N without one); a matrix step's as a list of instances. */
export function outputsOf(report: Report): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byStep = new Map<number, Report['steps']>();
  for (const s of report.steps) byStep.set(s.step, [...(byStep.get(s.step) ?? []), s]);
  for (const [index, runs] of byStep) {
    const key = runs[0]!.id ?? `step-${index + 1}`;
    out[key] = runs[0]!.matrix ? runs.map((r) => ({ matrix: r.matrix, outcome: r.outcome, outputs: r.outputs })) : runs[0]!.outputs;
  }
  return out;
}

/** Invalid inputs or pipeline: annotations on the file's lines, a summary, outputs, exit 2. */
async function failEarly(def: ActionDef, deps: ActionDeps, error: unknown, masker: Masker, say: (t: string) => void): Promise<number> {
  const { kit, context } = deps;
  if (error instanceof PipelineInvalid) {
    for (const d of error.diagnostics) {
      const message = masker.mask(`${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`);
      kit.error(message, def.uses ? { title: 'enginectl: invalid input' } : { title: 'enginectl: invalid pipeline', file: inWorkspace(context, d.file), startLine: d.line, startColumn: d.col });
    }
  }
  const text = masker.mask(describeError(error));
  say(text);
  const known = error instanceof EnginectlError;
  let summary = true;
  try {
    summary = booleanInput(kit.getInput, 'summary', true);
  } catch {
    // the input error being reported may be this one: the summary is written as by default
  }
  if (summary) {
    await kit.appendSummary(`## ❌ enginectl: ${known ? 'invalid input' : 'internal error'}\n\n\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\`\n`).catch(() => undefined);
  }
  kit.setOutput('outcome', 'failure');
  kit.setOutput('report', '');
  kit.setOutput('outputs', '{}');
  kit.setFailed(masker.mask(error instanceof PipelineInvalid ? error.message : text.split('\n')[0]!));
  return exitCodeOf(error);
}

/** Annotation paths are relative to the checkout. */
function inWorkspace(context: GitHubContext, file: string): string {
  return context.workspace && file.startsWith(`${context.workspace}/`) ? file.slice(context.workspace.length + 1) : file;
}
