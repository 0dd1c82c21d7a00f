// `enginectl shard` run again for the same fleet: a CI re-run (GitHub's "Re-run all jobs", a
// GitLab pipeline retry) plans nothing new but prints the run its first attempt planned (the CI
// run's identity, or --run-key, is its key), so its workers send no write again; without a key, a
// run of the same fleet that has not ended is a refusal (--new-run plans a second one on purpose),
// and one that ended is said in a line before the new rollout sends its writes again.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

const UPDATE = '/update/system';
const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/fleet',
  GITHUB_RUN_ID: '9001',
  GITHUB_RUN_ATTEMPT: '1',
};

test('a re-run of the whole workflow (same GITHUB_RUN_ID) prints the run its first attempt planned: no site is sent its update again', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const shard = (attempt: string) =>
    runCli(['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--format', 'github'], {
      env: { ...f.env, ...GITHUB, GITHUB_RUN_ATTEMPT: attempt },
    });
  const first = await shard('1');
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const run = /^run (\S+) in /m.exec(first.stderr)![1]!;
  for (const w of await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s))))
    assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-0001': 1, 'site-0002': 1 });

  const again = await shard('2');
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const rerun = /^run (\S+) in /m.exec(again.stderr)![1]!;
  // The workers of the re-run, given the run its plan job printed.
  for (const w of await Promise.all(['1/2', '2/2'].map((s) => f.worker(rerun, s))))
    assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-0001': 1, 'site-0002': 1 }, 'no write sent again');
  assert.equal(rerun, run, again.stderr);
  assert.equal(again.stdout, first.stdout, 'the same fan-out, the same run');
  assert.match(again.stderr, /planned by an earlier attempt/);
  const runs = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(runs.stdout.trimEnd().split('\n').length, 1, runs.stdout);
});

test('--run-key K: the run planned under K is printed again; the file changed under K is refused', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '2', '--run-key', 'release-42');
  const again = await f.shard('--shards', '2', '--run-key', 'release-42');
  assert.equal(again.run, first.run);
  assert.equal(again.stdout, first.stdout);
  // The same plan job, its file edited since (another pipeline): its workers would be refused.
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('name: Fleet release', 'name: Fleet release 2'));
  const other = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--run-key', 'release-42']);
  assert.equal(other.code, 2, other.stdout + other.stderr);
  assert.match(other.stderr, new RegExp(`run ${first.run} was planned under this key from another pipeline`));
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('name: Fleet release 2', 'name: Fleet release'));
  const shards = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '3', '--run-key', 'release-42']);
  assert.equal(shards.code, 2, shards.stdout + shards.stderr);
  assert.match(shards.stderr, /over 2 shard\(s\), not 3/);
});

test('without a key, a run of the same fleet not ended is a refusal naming it; --new-run plans a second one', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '2');
  const refused = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, new RegExp(`run ${first.run} of this fleet .*has not ended \\(planned`));
  assert.match(refused.stderr, new RegExp(`decide --store \\S+ --run ${first.run} --abort`));
  assert.match(refused.stderr, /--new-run/);
  assert.equal(refused.stdout, '');
  const second = await f.shard('--shards', '2', '--new-run');
  assert.notEqual(second.run, first.run);
});

test('without a key, a run of the same fleet that ended is said in one line, and a new rollout is planned', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '2');
  for (const w of await Promise.all(['1/2', '2/2'].map((s) => f.worker(first.run, s)))) assert.equal(w.code, 0);
  const second = await f.shard('--shards', '2');
  assert.notEqual(second.run, first.run);
  assert.match(
    second.stderr,
    new RegExp(
      `the last run of this fleet \\(${first.run}\\) ended success at \\S+Z: this plans a new rollout that sends its writes again`,
    ),
  );
});
