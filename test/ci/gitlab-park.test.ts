// docs/ci/gitlab.md's parked rollout, run by gitlab-ci-local as GitLab runs it (the shell
// executor), unchanged but for the variables a project sets (a file:// run store in place of the
// bucket, the three sites' URLs and secrets, each site an emulator over HTTP): the push pipeline's
// rollout job sends the canary's writes, parks for its 12-hour bake (exit 75, allowed: a warning,
// the pipeline passes); the scheduled pipeline's continue job, an hour later, parks again and sends
// nothing; the same job 13 hours later (the job's clock moved by libfaketime, and the sites' clock
// with it: a bake ends once both say so, as a schedule that fires the next day finds them) rolls
// out staging and prod, the canary's writes not sent again.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/action.ts';
import { committedRepo } from '../helpers/git-repo.ts';
import { pathForNestedNpx } from '../helpers/cli.ts';
import { SITES, siteSecrets, startSites } from '../helpers/sites.ts';

const GCL = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js');

/** libfaketime's multi-threaded library, wherever the architecture puts it (scripts/test-tools.mjs installs it). */
function libfaketime(): string {
  const found = readdirSync('/usr/lib')
    .map((dir) => join('/usr/lib', dir, 'faketime', 'libfaketimeMT.so.1'))
    .find((path) => existsSync(path));
  assert.ok(found, 'libfaketime is installed (apt-get install faketime; npm test installs it)');
  return found;
}

function docsJobs(): string {
  const doc = readFileSync(join(ROOT, 'docs/ci/gitlab.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Rollouts longer than a job'));
  return /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-park-'));
  mkdirSync(join(dir, 'pipelines/inventory'), { recursive: true });
  for (const f of ['canary-bake.yml', 'inventory/sites.yml'])
    copyFileSync(join(ROOT, 'pipelines', f), join(dir, 'pipelines', f));
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  writeFileSync(join(dir, '.gitlab-ci.yml'), docsJobs());
  committedRepo(dir, 'release');
  return dir;
}

test(
  "docs/ci/gitlab.md's parked rollout in gitlab-ci-local: the push pipeline parks at the 12h bake (exit 75 allowed), a schedule within the bake parks again, one 13 hours later rolls out the rest once",
  { timeout: 300_000 },
  async (t) => {
    // The sites' clock, moved with the job's 13 hours later: a continue judges a bake on both.
    let ahead = 0;
    const { urls, emulators } = await startSites(t, () => Date.now() + ahead);
    const storeDir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-park-store-'));
    const secrets = Object.assign({}, ...SITES.map((s) => siteSecrets(s, urls[s]))) as Record<string, string>;
    const dir = project();
    const pipeline = (variables: Record<string, string>) =>
      new Promise<{ status: number; said: string }>((resolve) =>
        execFile(
          'npx',
          [
            '-y',
            'node@24',
            GCL,
            '--force-shell-executor',
            '--json-schema-validation',
            '--no-color',
            ...Object.entries({ ENGINECTL_STORE: pathToFileURL(storeDir).href, ...secrets, ...variables }).flatMap(
              ([k, v]) => ['--variable', `${k}=${v}`],
            ),
          ],
          { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: pathForNestedNpx().join(':') } },
          (error, stdout, stderr) =>
            resolve({ status: error ? Number(error.code ?? 1) : 0, said: `${stdout}${stderr}` }),
        ),
      );
    const vfsWrites = () =>
      Object.fromEntries(
        SITES.map((s) => [
          s,
          emulators[s].requests.filter((q) => q.method === 'POST' && q.path.endsWith('/update/vfs')).length,
        ]),
      );

    // The push pipeline: the canary is rolled out, the bake parks the run.
    const push = await pipeline({});
    assert.equal(push.status, 0, push.said);
    assert.match(push.said, /json schema validated/);
    assert.match(push.said, /WARN\s+rollout/, 'exit 75 is allowed: a warning, not a failure');
    assert.doesNotMatch(push.said, /^(continue-rollout|decide) /m, 'only the rollout job runs on a push');
    assert.match(push.said, /rollout\s+> parked: waiting for the 12h bake after wave 1/);
    assert.deepEqual(vfsWrites(), { test: 1, staging: 0, prod: 0 });
    const runs = readdirSync(join(storeDir, 'runs'));
    assert.equal(runs.length, 1);
    const run = runs[0]!;

    // The hourly schedule, within the bake: parked again, nothing sent.
    const early = await pipeline({ CI_PIPELINE_SOURCE: 'schedule', PARKED_RUN: run });
    assert.equal(early.status, 0, early.said);
    assert.doesNotMatch(early.said, /^(rollout|decide) /m, 'only the continue job runs on a schedule');
    assert.match(early.said, new RegExp(`continue-rollout\\s+> .*${run}`), 'runs --parked lists the run');
    assert.match(early.said, /WARN\s+continue-rollout/);
    assert.match(early.said, /continue-rollout\s+> parked: waiting for the 12h bake after wave 1/);
    assert.deepEqual(vfsWrites(), { test: 1, staging: 0, prod: 0 }, 'nothing sent while the bake has time left');

    // The schedule 13 hours later: the job's clock (libfaketime, the monotonic clock left alone) is past the bake, and so are the sites'.
    ahead = 13 * 3_600_000;
    const later = await pipeline({
      CI_PIPELINE_SOURCE: 'schedule',
      PARKED_RUN: run,
      LD_PRELOAD: libfaketime(),
      FAKETIME: '+13h',
      DONT_FAKE_MONOTONIC: '1',
    });
    assert.equal(later.status, 0, later.said);
    assert.match(later.said, /PASS\s+continue-rollout/);
    assert.match(later.said, /continue-rollout\s+> pipeline "Release 2026.11, a canary baked 12 hours": success/);
    assert.deepEqual(vfsWrites(), { test: 1, staging: 1, prod: 1 }, 'the rest rolled out, the canary not sent again');
    const report = JSON.parse(readFileSync(join(dir, 'reports/report.json'), 'utf8')) as {
      outcome: string;
      parked?: unknown;
    };
    assert.equal(report.outcome, 'success');
    assert.equal(report.parked, null, 'no longer parked');
  },
);
