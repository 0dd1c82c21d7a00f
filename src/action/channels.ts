// The action's channels (app/channels/channel.ts): the job summary, the PR comment, the GitHub
// Deployment (in progress as the run starts, its final status as it ends) and the step's outputs.
// Each failure to record on GitHub is a warning (github-records.ts): the run's outcome stands.
import type { Channel, RunEnded } from '../app/channels/channel.ts';
import { EnginectlError } from '../errors.ts';
import type { Masker } from '../runner/masker.ts';
import type { ActionDef } from './definitions.ts';
import type { DeploymentState } from './github-api.ts';
import { undecidedDoubts } from '../runner/result.ts';
import { finishDeployment, prComment, startDeployment, type DeployedRun, type GitHubDeps } from './github-records.ts';
import { booleanInput } from './inputs.ts';
import type { Toolkit } from './toolkit.ts';
import { fitOutputs } from './outputs-fit.ts';

/** GitHub's limit on a comment is 65,536 characters; the report keeps well under it. */
export const COMMENT_LIMIT = 60_000;

/**
 * The Markdown where the job summary is, unless the summary input is false. A summary the runner
 * cannot take (a full disk) is a report not written, as the CLI's (app/channels/ci.ts): exit 1.
 */
export function jobSummaryChannel(kit: Toolkit, fullReport: string): Channel {
  return {
    name: 'job summary',
    async ended(end) {
      if (!booleanInput(kit.getInput, 'summary')) return;
      try {
        await kit.appendSummary(end.markdown({ fullReport }));
      } catch (error) {
        return { failed: [`job summary: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`] };
      }
    },
  };
}

/** The run's last line in the log: its outcome, and the report files written at `base` (none claimed that was not). */
export function reportsLineChannel(kit: Toolkit, masker: Masker, base: string, files: { written: readonly string[] }) {
  return {
    name: 'log',
    ended(end: RunEnded) {
      const extensions = files.written.map((path) =>
        path.startsWith(`${base}.`) ? path.slice(base.length + 1) : path,
      );
      const where =
        extensions.length === 0
          ? 'no report written'
          : extensions.length === 1
            ? `report in ${files.written[0]}`
            : `reports in ${base}.{${extensions.join(',')}}`;
      // A parked run is neither a success nor a failure: its line says parked, as its outcome output does.
      kit.info(masker.mask(`${end.report?.parked ? 'parked' : end.outcome}: ${where}`));
    },
  } satisfies Channel;
}

/** One comment per `key` and pull request, with pr-comment: true. */
export function prCommentChannel(deps: GitHubDeps, key: string, masker: Masker, fullReport: string): Channel {
  return {
    name: 'PR comment',
    ended: (end) => prComment(deps, key, end.markdown({ limit: COMMENT_LIMIT, fullReport }), masker),
  };
}

export interface DeploymentChannel extends Channel {
  /** The run was refused before it started or ended (an input, plain http://): its Deployment ends in error. */
  notRun(error: unknown): Promise<void>;
}

/** A Deployment to `environment`: in_progress as the run starts, then success, failure or error. */
export function deploymentChannel(
  deps: GitHubDeps,
  label: string,
  environment: string,
  masker: Masker,
  run?: DeployedRun,
): DeploymentChannel {
  let deployment: Promise<{ id: number } | undefined> | undefined;
  const start = () => (deployment ??= startDeployment(deps, label, environment, masker, run));
  return {
    name: 'deployment',
    async started() {
      await start();
    },
    async ended(end) {
      const made = await start();
      if (!made) return;
      const name = end.report?.pipeline.name ?? label;
      // Parked, nothing ended: the Deployment stays in progress, saying what it waits for; the job that goes on ends it.
      const parked = end.report?.parked;
      if (parked) {
        await finishDeployment(
          deps,
          made,
          'in_progress',
          `${name}: parked: waiting for ${parked.reason}`,
          environment,
          masker,
        );
        return;
      }
      // A write left in doubt fails the job (exit 1) whatever continue-on-error let pass: not a success.
      const doubts = end.report ? undecidedDoubts(end.report.steps).length : 0;
      const state: DeploymentState =
        end.outcome === 'success' && doubts === 0
          ? 'success'
          : end.outcome === 'failure' || end.outcome === 'success'
            ? 'failure'
            : 'error';
      const said = state === 'failure' && end.outcome === 'success' ? `${doubts} write(s) left in doubt` : end.outcome;
      await finishDeployment(deps, made, state, `${name}: ${said}`, environment, masker);
    },
    async notRun(error) {
      const made = await start();
      if (!made) return;
      const why = error instanceof EnginectlError ? error.code : 'internal error';
      await finishDeployment(deps, made, 'error', `${label}: not run (${why})`, environment, masker);
    },
  };
}

/**
 * Every documented output as the run ends: its outcome, the JSON report's path (empty when it
 * could not be written), every step's outputs as one value, the journal; a single-step action's
 * own outputs besides.
 */
export function outputsChannel(
  def: Pick<ActionDef, 'uses' | 'outputs'>,
  kit: Toolkit,
  files: { reportPath?: string; reportWritten?: () => boolean; journalPath?: string; outcome?: string },
): Channel {
  return {
    name: 'outputs',
    ended(end) {
      // The report is masked as values: its outputs are set as they are.
      kit.setOutput('outcome', files.outcome ?? (end.report?.parked ? 'parked' : end.outcome));
      kit.setOutput('report', end.report && files.reportWritten?.() ? (files.reportPath ?? '') : '');
      const fitted = end.report && !end.report.merged ? fitOutputs(end.report) : { json: '{}', left: 0 };
      kit.setOutput('outputs', fitted.json);
      if (fitted.left !== 0)
        kit.warning(
          `output outputs: ${fitted.left === 'all' ? 'set to {}, as a list of every step run alone passes' : `the outputs of ${fitted.left} step run(s) are left out (null), the largest first, to keep it within`} GitHub's limit of 1 MB for an output; the JSON report (output report) holds them all`,
          { title: 'enginectl' },
        );
      if (files.journalPath !== undefined) kit.setOutput('journal', files.journalPath);
      if (!def.uses || !end.report) return;
      // Every documented output of the step (an output may share its name with an input: summary).
      const outputs = end.report.steps[0]?.outputs ?? {};
      for (const name of Object.keys(def.outputs)) {
        if (['report', 'outcome', 'outputs', 'journal'].includes(name) || !(name in outputs)) continue;
        const value = outputs[name];
        kit.setOutput(name, typeof value === 'string' ? value : JSON.stringify(value));
      }
    },
  };
}
