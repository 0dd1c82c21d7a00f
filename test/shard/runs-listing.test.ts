// `enginectl runs --store URL` of a store holding a sharded run: the run is one line, with where
// its rollout stands (as report --merge --store reads it), and the runs its workers started for
// its sites are not listed on their own; --parked lists a parked sharded run with what it waits
// for and how it goes on, as it lists one process's parked run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('runs --store lists a sharded run parked on its bake as one line, its site runs under it; --parked says what it waits for and how it goes on', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [[site-0001], rest]\n  analysis: { bake: 1h }');
  const run = (await f.shard('--shards', '2')).run!;
  const workers = await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s, '--shard-wait', '1s')));
  for (const w of workers) assert.equal(w.code, 75, w.stdout + w.stderr);
  const siteRun = workers.flatMap((w) => w.report?.steps ?? []).find((s) => s.matrix?.site === 'site-0001');
  assert.ok(siteRun, 'site-0001 ran in wave 1');

  const all = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(all.code, 0, all.stdout + all.stderr);
  const lines = all.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line for the sharded run, none for its site run: ${all.stdout}`);
  assert.match(
    lines[0]!,
    new RegExp(
      `^${run}  \\S+Z  "Fleet release" \\(.*fleet\\.yml\\)  sharded over 2 shard\\(s\\), 4 site\\(s\\): parked at wave 1$`,
    ),
  );

  const parked = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.equal(parked.code, 0, parked.stdout + parked.stderr);
  const [head, how, ...rest] = parked.stdout.trimEnd().split('\n');
  assert.match(
    head!,
    new RegExp(`^${run}  "Fleet release" .* parked at wave 1 since \\S+Z: waiting for the 1h bake after wave 1$`),
  );
  assert.match(how!, /^ {2}run its workers again \(the same commands\) at or after \S+Z$/);
  assert.deepEqual(rest, []);
});

test('runs --store says a sharded run that halted halted, beside a run of one process; --parked lists neither', async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0001 status=409'],
  });
  const one = await f.cli(['run', f.file, '--store', f.storeUrl, '--only', 'site=site-0002']);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const run = (await f.shard('--shards', '2')).run!;
  const workers = await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s)));
  for (const w of workers) assert.equal(w.code, 1, w.stdout + w.stderr);

  const all = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(all.code, 0, all.stdout + all.stderr);
  const lines = all.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2, all.stdout);
  // Both started in the same second, or the sharded run a second later: newest first, by id.
  const shardedLine = lines.find((l) => l.startsWith(run))!;
  const single = lines.find((l) => l !== shardedLine)!;
  assert.match(shardedLine, /^\S+ {2}.*sharded over 2 shard\(s\), 3 site\(s\): halted at wave 1$/);
  assert.match(single, /"Fleet release" .* {2}success$/);
  assert.doesNotMatch(single, /sharded/);
  assert.deepEqual(lines, [...lines].sort().reverse());

  const parked = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.equal(parked.stdout, `no parked run in ${f.storeUrl}\n`);
});
