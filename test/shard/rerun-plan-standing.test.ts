// What `enginectl shard` says of the runs it finds: the key's run printed again says how it
// stands (ended, and how: its workers will do nothing); a key's run whose manifest another
// enginectl version hashed is told as that, not as another pipeline; a run of the store this
// enginectl cannot read is named, with how to plan past it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/fleet',
  GITHUB_RUN_ID: '9201',
  GITHUB_RUN_ATTEMPT: '1',
};

const runOf = (stderr: string) => /^run (\S+) in /m.exec(stderr)![1]!;

test('a re-run of the plan job whose run was aborted says it ended aborted, and how to roll out again', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const plan = () =>
    runCli(['shard', f.file, '--store', f.storeUrl, '--shards', '2'], { env: { ...f.env, ...GITHUB } });
  const first = await plan();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const run = runOf(first.stderr);
  const abort = await f.cli(['decide', '--store', f.storeUrl, '--run', run, '--abort', '--reason', 'bad release']);
  assert.equal(abort.code, 0, abort.stdout + abort.stderr);
  const again = await plan();
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(runOf(again.stderr), run);
  assert.match(again.stderr, /planned by an earlier attempt/);
  assert.match(again.stderr, /it ended aborted at wave 1 at /, again.stderr);
  assert.match(
    again.stderr,
    /its workers start no site: to roll the fleet out again, plan under another key \(a new CI run, or --run-key\)/,
  );
});

test("a key's run whose manifest another enginectl version hashed is STORE_VERSION, not another pipeline", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '2', '--run-key', 'r-1');
  const path = join(f.store, 'shards', first.run, 'manifest');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { sha256: string };
  manifest.sha256 = manifest.sha256.replace(/^sha256:/, 'blake3:');
  writeFileSync(path, JSON.stringify(manifest));
  const again = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--run-key', 'r-1']);
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /another enginectl version wrote it/);
  assert.match(again.stderr, /code: STORE_VERSION/);
  assert.doesNotMatch(again.stderr, /from another pipeline/);
});

test('a run of the store whose manifest is damaged is named, with how to plan past it (not to plan again)', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '2', '--new-run');
  writeFileSync(join(f.store, 'shards', first.run, 'manifest'), '{"not":"a manifest"}');
  const next = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.notEqual(next.code, 0, next.stdout + next.stderr);
  assert.match(next.stderr, new RegExp(`run ${first.run}`));
  assert.match(next.stderr, /of this fleet .*cannot be read .*cannot tell whether it has ended/);
  assert.match(next.stderr, /--new-run/);
  assert.doesNotMatch(next.stderr, /plan the rollout again/);
});

test('a run aborted before any worker started is ended: the next plan of the fleet is not refused, and says it', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '2');
  const before = Date.now();
  const abort = await f.cli([
    'decide',
    '--store',
    f.storeUrl,
    '--run',
    first.run,
    '--abort',
    '--reason',
    'bad release',
  ]);
  assert.equal(abort.code, 0, abort.stdout + abort.stderr);
  const next = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.notEqual(runOf(next.stderr), first.run);
  assert.match(next.stderr, new RegExp(`the last run of this fleet \\(${first.run}\\) ended aborted`));
  // Ended when it was aborted, not before (the review's finding: its start and duration, before the abort).
  const at = /ended aborted at wave 1 at (\S+Z):/.exec(next.stderr)?.[1];
  assert.ok(at && Date.parse(at) >= before - 1, `${at} is before the abort (${new Date(before).toISOString()})`);
});
