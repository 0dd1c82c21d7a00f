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
