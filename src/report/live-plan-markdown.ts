// The live plan as Markdown: the PR comment of the root action's `dry-run: live`, the job summary,
// `plan --live --summary F`. What each step finds now (holds, would wait, fails now), what each
// write would change, what no GET request can prove, and every call in a fold.
import type { PlannedStep } from '../runner/plan.ts';
import { cell, noMentions, visibleControls } from '../text/escape.ts';

const NOW: Record<NonNullable<PlannedStep['live']>['state'], { icon: string; word: string }> = {
  holds: { icon: '✅', word: 'holds' },
  'would-wait': { icon: '⏳', word: 'would wait' },
  'fails-now': { icon: '❌', word: '**fails now**' },
  'after-writes': { icon: '🔁', word: 'after the writes above' },
  'not-sent': { icon: '✏️', word: 'not sent (a write)' },
  'not-read': { icon: '⏭️', word: 'not read' },
};

export interface LivePlanView {
  name: string;
  steps: readonly PlannedStep[];
  /** The calls as plan-text.ts renders them (masked). */
  text: string;
  failsNow: number;
  wouldWait: number;
}

export function livePlanMarkdown(plan: LivePlanView): string {
  const icon = plan.failsNow > 0 ? '❌' : plan.wouldWait > 0 ? '⏳' : '🔍';
  const out = [`## ${icon} ${cell(plan.name)}: live plan`, ''];
  out.push(
    `Read now with GET requests only; no write was sent. ${plan.failsNow} step run(s) fail now, ${plan.wouldWait} would wait.`,
    '',
  );
  out.push('| | # | step | now |', '|---|---|---|---|');
  for (const s of plan.steps) {
    const now = s.live ? NOW[s.live.state] : { icon: '·', word: 'planned' };
    const what = s.live?.text.replace(/^a write(; )?/, '') ?? s.note ?? '';
    out.push(
      `| ${now.icon} | ${s.position.replace(/^\[|\]$/g, '')} | ${cell(s.name)} | ${now.word}${what ? `: ${cell(what)}` : ''} |`,
    );
  }
  const unproven = plan.steps.filter((s) => s.live?.unprovable);
  if (unproven.length > 0) {
    out.push('', '**Unverified until sent** (no GET request can prove it):', '');
    for (const s of unproven)
      out.push(`- ${s.position.replace(/^\[|\]$/g, '')} ${cell(s.name)}: ${cell(s.live!.unprovable!)}`);
  }
  const fence = '```';
  out.push(
    '',
    '<details><summary>Every call (secrets masked)</summary>',
    '',
    fence,
    visibleControls(plan.text).replaceAll(fence, "'''"),
    fence,
    '',
    '</details>',
    '',
  );
  return noMentions(out.join('\n'));
}
