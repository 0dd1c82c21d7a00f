// What a review of shard's keys and slots found: a plan job that stopped between its fleet's slot
// and its manifest is moved past by --new-run (which takes the next slot too), the refusal of a
// key's other plan points to a way that works, two repositories of one CI workspace are two
// pipelines, and a damaged manifest of another fleet's run does not block this fleet's plans (an
// aborted run's end, the fifth finding: rerun-plan-standing.test.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { committedRepo } from '../helpers/git-repo.ts';
import { shardFleet } from './helpers.ts';

const runOf = (stderr: string) => /^run (\S+) in /m.exec(stderr)![1]!;

test('a plan that stopped after its slot, before its manifest: --new-run plans past it, and the plans after that run ended go through', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const stopped = await f.shard('--shards', '2');
  // The state a planner leaves when it dies after its slot: no instances, no manifest.
  rmSync(join(f.store, 'shards', stopped.run), { recursive: true });
  const refused = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /--new-run/);
  const past = await f.shard('--shards', '2', '--new-run');
  for (const w of await Promise.all(['1/2', '2/2'].map((s) => f.worker(past.run, s)))) assert.equal(w.code, 0);
  const next = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.match(next.stderr, new RegExp(`the last run of this fleet \\(${past.run}\\) ended success`));
});

test("a key's run planned otherwise is refused with a way that works: another --run-key, not --new-run (which keeps the key)", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  await f.shard('--shards', '2', '--run-key', 'k1');
  const other = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '3', '--run-key', 'k1']);
  assert.equal(other.code, 2, other.stdout + other.stderr);
  assert.match(other.stderr, /hint: .*another --run-key/);
  assert.doesNotMatch(other.stderr, /hint: .*--new-run/);
});

test('two repositories of one CI workspace (a checkout inside a checkout) are two pipelines under one CI run', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const workspace = join(f.dir, 'workspace');
  const inner = join(workspace, 'other');
  mkdirSync(inner, { recursive: true });
  const text = readFileSync(f.file, 'utf8');
  writeFileSync(join(workspace, 'fleet.yml'), text);
  writeFileSync(join(inner, 'fleet.yml'), text.replace('name: Fleet release', 'name: Other release'));
  committedRepo(inner);
  writeFileSync(join(workspace, '.gitignore'), 'other/\n');
  committedRepo(workspace);
  const env = {
    ...f.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/fleet',
    GITHUB_RUN_ID: '9301',
    GITHUB_WORKSPACE: workspace,
  };
  const plan = (file: string) => runCli(['shard', file, '--store', f.storeUrl, '--shards', '2'], { env });
  const a = await plan(join(workspace, 'fleet.yml'));
  assert.equal(a.code, 0, a.stdout + a.stderr);
  const b = await plan(join(inner, 'fleet.yml'));
  assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.notEqual(runOf(b.stderr), runOf(a.stderr));
});

test("a damaged manifest of another fleet's run is said in a line and passed over: this fleet's plan goes through", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const otherFile = join(f.dir, 'other.yml');
  writeFileSync(otherFile, readFileSync(f.file, 'utf8').replace('name: Fleet release', 'name: Other release'));
  const other = await f.cli(['shard', otherFile, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(other.code, 0, other.stdout + other.stderr);
  const otherRun = runOf(other.stderr);
  writeFileSync(join(f.store, 'shards', otherRun, 'manifest'), '{"not":"a manifest"}');
  const mine = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(mine.code, 0, mine.stdout + mine.stderr);
  assert.match(mine.stderr, new RegExp(`warning: run ${otherRun} .*cannot be read`));
});
