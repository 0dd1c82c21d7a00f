// docs/ci/gitlab.md's pipelines are created on every branch, not only the default one: a job that
// `needs:` a job whose `rules:` leave it out of a branch's pipeline makes GitLab refuse to create
// that pipeline ("'verify' job needs 'release' job, but 'release' is not in any previous stage"), so
// every merge request's pipeline would fail. gitlab-ci-local evaluates the rules on a feature branch
// (its --list-json); each example's needs are checked against the jobs its rules keep.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ROOT } from '../helpers/action.ts';
import { committedRepo } from '../helpers/git-repo.ts';
import { pathForNestedNpx } from '../helpers/cli.ts';

const GCL = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js');
const blocks = [...readFileSync(join(ROOT, 'docs/ci/gitlab.md'), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map(
  (m) => m[1]!,
);

type Need = string | { job: string; optional?: boolean };
type Job = { rules?: unknown; needs?: Need[] };

test("every example of docs/ci/gitlab.md: a job that needs another has the needed job's rules (or needs it optionally), so no branch's pipeline is refused", () => {
  for (const [i, block] of blocks.entries()) {
    const jobs = parse(block) as Record<string, Job>;
    for (const [name, job] of Object.entries(jobs)) {
      if (!job || typeof job !== 'object' || !Array.isArray(job.needs)) continue;
      for (const need of job.needs) {
        const needed = typeof need === 'string' ? need : need.optional ? undefined : need.job;
        const rules = needed === undefined ? undefined : jobs[needed]?.rules;
        if (rules === undefined) continue;
        assert.deepEqual(
          job.rules,
          rules,
          `block ${i + 1}: ${name} needs ${needed}, whose rules leave it out of some pipelines`,
        );
      }
    }
  }
});

test("docs/ci/gitlab.md's pipeline with its reports, on a feature branch in gitlab-ci-local: no job left in it needs one its rules left out", () => {
  const block = blocks.find((b) => b.includes('after-release:'))!;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-branch-'));
  writeFileSync(join(dir, '.gitlab-ci.yml'), block);
  const git = committedRepo(dir, 'pipeline');
  git('checkout', '-q', '-b', 'feature');
  const listed = JSON.parse(
    execFileSync('npx', ['-y', 'node@24', GCL, '--list-json'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: pathForNestedNpx().join(':') },
    }),
  ) as { name: string; when: string; needs?: { job: string; optional: boolean }[] }[];
  const kept = new Set(listed.filter((j) => j.when !== 'never').map((j) => j.name));
  assert.ok(!kept.has('release'), 'the release runs on the default branch only');
  for (const job of listed.filter((j) => j.when !== 'never'))
    for (const need of job.needs ?? [])
      assert.ok(need.optional || kept.has(need.job), `${job.name} needs ${need.job}, which is not in the pipeline`);
});
