// What keys a plan job's run in its CI run: the CI run (or --run-key), the pipeline file (the same
// file however its path is typed), and its --var values. A matrix of plan jobs in one CI run, each
// with --var values of its own, plans a run each (each a fleet of its own); the same plan job run
// again, its path typed another way, prints the run it planned first.
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/fleet',
  GITHUB_RUN_ID: '9002',
  GITHUB_RUN_ATTEMPT: '1',
};

test('a matrix of plan jobs in one CI run, each with its own --var values, plans a run each; their workers run every site once', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const plan = (site: string) =>
    runCli(['shard', f.file, '--store', f.storeUrl, '--shards', '1', '--var', `sites=[${site}]`], {
      env: { ...f.env, ...GITHUB },
    });
  const [a, b] = [await plan('site-0001'), await plan('site-0002')];
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const runOf = (stderr: string) => /^run (\S+) in /m.exec(stderr)![1]!;
  assert.notEqual(runOf(b.stderr), runOf(a.stderr), 'a run of its own');
  assert.doesNotMatch(b.stderr, /earlier attempt/);
  for (const [r, site] of [
    [a, 'site-0001'],
    [b, 'site-0002'],
  ] as const) {
    const w = await f.cli([
      'run',
      f.file,
      '--store',
      f.storeUrl,
      '--run',
      runOf(r.stderr),
      '--shard',
      '1/1',
      '--var',
      `sites=[${site}]`,
    ]);
    assert.equal(w.code, 0, w.stdout + w.stderr);
  }
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  // Each plan job run again (a re-run of the workflow) prints its own run again.
  const again = await plan('site-0002');
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(runOf(again.stderr), runOf(b.stderr));
});

test('the same pipeline file, its path typed another way in a re-run, is the run its first attempt planned', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const plan = (file: string) =>
    runCli(['shard', file, '--store', f.storeUrl, '--shards', '2'], { env: { ...f.env, ...GITHUB } });
  const first = await plan(f.file);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  for (const typed of [relative(process.cwd(), f.file), `${f.dir}/./fleet.yml`]) {
    const again = await plan(typed);
    assert.equal(again.code, 0, `${typed}: ${again.stdout}${again.stderr}`);
    assert.match(again.stderr, /planned by an earlier attempt/, typed);
  }
});

test("--new-run plans a second rollout under the CI run's key: the plan job re-run prints that run again, no third one", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const plan = (...args: string[]) =>
    runCli(['shard', f.file, '--store', f.storeUrl, '--shards', '2', ...args], { env: { ...f.env, ...GITHUB } });
  const first = await runCli(['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--new-run'], { env: f.env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const second = await plan('--new-run');
  assert.equal(second.code, 0, second.stdout + second.stderr);
  const again = await plan('--new-run');
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const runOf = (stderr: string) => /^run (\S+) in /m.exec(stderr)![1]!;
  assert.equal(runOf(again.stderr), runOf(second.stderr), 'the run its first attempt planned');
  assert.match(again.stderr, /planned by an earlier attempt/);
  // And with a key of one's own.
  const keyed = await plan('--new-run', '--run-key', 'hotfix-7');
  assert.equal(keyed.code, 0, keyed.stdout + keyed.stderr);
  const keyedAgain = await plan('--new-run', '--run-key', 'hotfix-7');
  assert.equal(runOf(keyedAgain.stderr), runOf(keyed.stderr));
});
