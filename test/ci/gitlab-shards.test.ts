// docs/ci/gitlab.md's fleet over shards, run by gitlab-ci-local as GitLab runs it (the shell
// executor), unchanged but for what a project gives it: its fleet's pipeline (pipelines/fleet.yml,
// 12 sites of an emulator served over HTTP in 3 waves) and its variables (a file:// run store in
// place of the bucket, the target's token). The shard job's dotenv report gives the workers the
// run's id, parallel: gives each its index, the workers keep the waves, and the merge job's
// report of the run passes: every site's update applied once.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/action.ts';
import { committedRepo } from '../helpers/git-repo.ts';
import { pathForNestedNpx } from '../helpers/cli.ts';
import { shardFleet, waveLog } from '../shard/helpers.ts';

const GCL = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js');

/** The YAML block of the docs' section on shards. */
function docsPipeline(): string {
  const doc = readFileSync(join(ROOT, 'docs/ci/gitlab.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A fleet over shards'));
  return /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
}

test(
  "docs/ci/gitlab.md's fleet over shards runs in gitlab-ci-local: 4 parallel workers, every site's update applied once, the merge job's report passes",
  { timeout: 300_000 },
  async (t) => {
    const f = await shardFleet(t, 12, '  over: site\n  waves: [[site-0001], 3, rest]\n  max-failures: 0');
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-shards-'));
    mkdirSync(join(dir, 'pipelines'));
    copyFileSync(f.file, join(dir, 'pipelines/fleet.yml'));
    symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
    writeFileSync(join(dir, '.gitlab-ci.yml'), docsPipeline());
    committedRepo(dir, 'fleet');
    const variables = { ENGINECTL_STORE: f.storeUrl, ...f.env };
    // Asynchronously: the emulator answers from this process while the jobs run.
    const r = await new Promise<{ status: number; said: string }>((resolve) =>
      execFile(
        'npx',
        [
          '-y',
          'node@24',
          GCL,
          '--force-shell-executor',
          '--json-schema-validation',
          '--no-color',
          ...Object.entries(variables).flatMap(([k, v]) => ['--variable', `${k}=${v}`]),
        ],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: pathForNestedNpx().join(':') } },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, said: `${stdout}${stderr}` }),
      ),
    );
    const said = r.said;
    assert.equal(r.status, 0, said);
    assert.match(said, /json schema validated/);
    for (const job of [
      'shard',
      'workers: \\[1/4\\]',
      'workers: \\[2/4\\]',
      'workers: \\[3/4\\]',
      'workers: \\[4/4\\]',
      'merge',
    ])
      assert.match(said, new RegExp(`PASS\\s+${job}`), job);
    // The run the shard job planned is the one every worker ran and the merge reported.
    const runs = readdirSync(join(f.store, 'shards'));
    assert.equal(runs.length, 1, 'one sharded run in the store');
    const run = runs[0]!;
    assert.match(readFileSync(join(dir, 'shard.env'), 'utf8'), new RegExp(`^ENGINECTL_RUN=${run}$`, 'm'));
    for (let i = 1; i <= 4; i++)
      assert.match(said, new RegExp(`shard ${i}/4 of run ${run}: owns \\d+ site\\(s\\)`), `worker ${i}`);
    // Every site once, in the store's waves: wave 2 started after wave 1's site ended.
    const applied = f.applied('/update/system');
    assert.deepEqual(Object.keys(applied).sort(), f.names);
    assert.ok(
      Object.values(applied).every((n) => n === 1),
      JSON.stringify(applied),
    );
    assert.deepEqual(
      waveLog(f.store, run, 1)
        .filter((e) => e.kind === 'start')
        .map((e) => e.site),
      ['site-0001'],
    );
    // The merge job: one report of the run, every site in it, and its JUnit (artifacts land in the checkout).
    const junit = readFileSync(join(dir, 'fleet.xml'), 'utf8');
    for (const site of f.names) assert.ok(junit.includes(site), `${site} in the merged JUnit`);
    assert.doesNotMatch(junit, /<failure/);
  },
);
