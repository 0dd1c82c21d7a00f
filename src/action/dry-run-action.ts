// The root action's and single-step actions' dry run: `dry-run: true` shows each call and makes
// none; `dry-run: live` is the preflight (GET requests only), posted as the job summary and the PR
// comment, failing the action when a step fails now.
import { ACTION_WAYS } from './ways-on.ts';
import { makePlan } from '../app/plan.ts';
import { standInWarning } from '../app/stand-ins.ts';
import { ExitCode, UsageError } from '../errors.ts';
import { livePlanMarkdown } from '../report/live-plan-markdown.ts';
import { cutMarkdown } from '../report/markdown-cut.ts';
import { SUMMARY_BUDGET } from '../report/markdown.ts';
import type { Masker } from '../runner/masker.ts';
import { indentLines } from '../text/neutralise.ts';
import type { ActionDef } from './definitions.ts';
import { commentKey, type GitHubDeps } from './github-records.ts';
import { publisher } from '../app/channels/channel.ts';
import { jobSummaryChannel, outputsChannel, prCommentChannel } from './channels.ts';
import { booleanInput, emptyInput } from './inputs.ts';
import { failNotWritten, warnNotWritten } from './action-end.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Selection } from '../pipeline/selection.ts';
import type { Env } from '../runner/scope.ts';
import { cell, visibleControls } from '../text/escape.ts';

/** The dry-run input: false (run), true (the calls; no request), live (the preflight: GET requests only). */
export function dryRunMode(get: (name: string) => string): 'false' | 'true' | 'live' {
  const raw = get('dry-run').trim();
  if (raw === 'live') return 'live';
  // Empty is not false: GitHub passes '' for an expression that evaluated empty, never the default.
  if (raw === '') throw emptyInput('dry-run', 'true, live or false');
  try {
    return booleanInput(get, 'dry-run') ? 'true' : 'false';
  } catch {
    throw new UsageError('BAD_INPUT', `input dry-run: "${raw}" is none of true, false or live`, {
      hint: 'write dry-run: true (the calls, no request), live (the preflight: GET requests only) or false',
    });
  }
}

export async function dryRun(
  def: ActionDef,
  deps: GitHubDeps & { signal: AbortSignal; now: () => number },
  loaded: { pipeline: Pipeline; env: Env; selection: Selection; stoodIn?: string[] | undefined },
  masker: Masker,
  live: boolean,
): Promise<number> {
  const { kit } = deps;
  // It sends nothing: what it was not given stood in, masked; named, as a run needs it (app/stand-ins.ts).
  const stoodIn = standInWarning(loaded.stoodIn ?? []);
  if (stoodIn) kit.warning(stoodIn, { title: 'enginectl' });
  const plan = await makePlan(loaded.pipeline, loaded.env, {
    masker,
    selection: loaded.selection,
    ways: ACTION_WAYS,
    ...(live ? { live: { signal: deps.signal, now: deps.now } } : {}),
  });
  kit.info(
    live
      ? `live plan of "${indentLines(plan.name)}": GET requests only; no write is sent`
      : `dry run of "${indentLines(plan.name)}": no request is made`,
  );
  for (const line of plan.text.split('\n')) kit.info(line);
  const fence = '```';
  const markdown = live
    ? livePlanMarkdown(plan)
    : `## 🔍 ${cell(plan.name)}: dry run\n\nNo request was made. The calls the pipeline would make (secrets masked):\n\n${fence}\n${visibleControls(plan.text).replaceAll(fence, "'''")}\n${fence}\n`;
  // Published as a run is, through one publisher: the job summary, the PR comment, the outputs.
  const failed = await publisher(
    [
      jobSummaryChannel(kit, ''),
      prCommentChannel(deps, commentKey(def, loaded.pipeline, loaded.selection), masker, ''),
      outputsChannel({ outputs: {} }, kit, { outcome: 'dry-run' }),
    ],
    { warn: (m) => kit.warning(m, { title: 'enginectl' }), mask: (text) => masker.mask(text) },
  ).ended({
    outcome: live && plan.failsNow > 0 ? 'failure' : 'success',
    // Under the place's limit (the summary's 1 MiB, the comment's): cut with a note, the log holding every call.
    markdown: (o) =>
      cutMarkdown(
        markdown,
        o.limit ?? SUMMARY_BUDGET,
        (kib) => `The ${live ? 'live plan' : 'dry run'} was cut at ${kib} KiB: the step's log holds every call.`,
      ),
  });
  warnNotWritten(kit, masker, failed);
  if (live && plan.failsNow > 0) {
    kit.setFailed(`${plan.failsNow} step run(s) fail now: see the live plan`);
    return ExitCode.failed;
  }
  return failed.length === 0
    ? ExitCode.ok
    : failNotWritten(kit, masker, `the ${live ? 'live plan' : 'dry run'}`, failed);
}
