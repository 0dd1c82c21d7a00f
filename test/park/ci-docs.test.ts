// The CI examples of parked runs, as the docs show them: docs/ci/gitlab.md's jobs parse as GitLab
// CI YAML, let exit 75 (parked) through as neither green nor red, continue the parked run on a
// schedule and record decisions from a manual job, with flags the CLI accepts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';

interface Job {
  script: string[];
  allow_failure?: { exit_codes: number[] };
  rules: { if: string; when?: string }[];
}

function gitlabJobs(): Record<string, Job> {
  const doc = readFileSync(new URL('../../docs/ci/gitlab.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Rollouts longer than a job'));
  return parse(/```yaml\n([\s\S]*?)```/.exec(section)![1]!) as Record<string, Job>;
}

test("docs/ci/gitlab.md's parked-run jobs: exit 75 allowed, a scheduled continue, a manual decision, with flags the CLI has", async () => {
  const jobs = gitlabJobs();
  assert.deepEqual(Object.keys(jobs), ['rollout', 'continue-rollout', 'decide']);
  for (const name of ['rollout', 'continue-rollout'])
    assert.deepEqual(jobs[name]!.allow_failure?.exit_codes, [ExitCode.parked], name);
  assert.match(jobs['continue-rollout']!.rules[0]!.if, /schedule/);
  assert.equal(jobs.decide!.rules[0]!.when, 'manual');
  // Every flag the scripts give is one its command accepts.
  for (const line of Object.values(jobs).flatMap((j) => j.script)) {
    const [, command, ...rest] = line.replace(/^node dist\/cli\.mjs /, 'x ').split(/\s+/);
    const help = await runCli([command!, '--help']);
    for (const flag of rest.filter((w) => w.startsWith('--')))
      assert.match(help.stdout, new RegExp(`^\\s+${flag}\\b`, 'm'), `${command} ${flag}`);
  }
});

/** The first ```yaml block of a docs page's section. */
function sectionYaml(page: string, heading: string): string {
  const doc = readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8');
  const at = doc.indexOf(heading);
  assert.ok(at >= 0, `${page}: ${heading}`);
  return /```yaml\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
}

/** Every flag of each `enginectl COMMAND ...` line of a script is one its command accepts. */
async function flagsAccepted(lines: string[]) {
  const calls = lines.flatMap((l) => [...l.matchAll(/cli\.mjs (\w+)((?: +(?:--[\w-]+|"[^"]*"|[^\s|;)]+))*)/g)]);
  assert.ok(calls.length > 0, 'the script runs enginectl');
  for (const [, command, rest] of calls) {
    const help = await runCli([command!, '--help']);
    for (const flag of (rest ?? '').split(/\s+/).filter((w) => w.startsWith('--')))
      assert.match(help.stdout, new RegExp(`^\\s+${flag}\\b`, 'm'), `${command} ${flag}`);
  }
}

const WINDOW_PARKS = '## Maintenance windows: continue parked runs at each window';

test("docs/github-actions.md's window workflow polls on a schedule and continues every run parked for a window, letting 75 through", async () => {
  const workflow = parse(sectionYaml('github-actions.md', WINDOW_PARKS)) as {
    on: { schedule: { cron: string }[] };
    jobs: Record<string, { steps: { run?: string }[] }>;
  };
  const cron = workflow.on.schedule[0]!.cron;
  // Every 10 minutes over 00:00-04:59 UTC: 02:00-06:00 Berlin in winter (01:00Z) and summer (00:00Z) alike.
  assert.equal(cron, '*/10 0-4 * * *');
  const script = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
  assert.match(script.join('\n'), /runs --parked \| awk '\/waiting for the next window\/ \{print \$1\}'/);
  assert.match(script.join('\n'), /"\$code" != 75/);
  await flagsAccepted(script);
});

test("docs/ci/gitlab.md's window job runs from a schedule, continues every run parked for a window, 75 allowed", async () => {
  const jobs = parse(sectionYaml('ci/gitlab.md', WINDOW_PARKS)) as Record<string, Job>;
  const job = jobs['continue-parked']!;
  assert.match(job.rules[0]!.if, /\$CI_PIPELINE_SOURCE == "schedule"/);
  assert.deepEqual(job.allow_failure?.exit_codes, [ExitCode.parked]);
  assert.match(job.script.join('\n'), /awk '\/waiting for the next window\/ \{print \$1\}'/);
  await flagsAccepted(job.script);
});
