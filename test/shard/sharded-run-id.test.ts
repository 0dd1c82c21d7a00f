// The commands of a parked run given a sharded run's id (enginectl shard's, as its job outputs and
// the merge name it): decide, run --continue, verify. Its sites are runs of their own; it has no
// journal, and no operator's decision parks or continues it. Each refuses it saying so, and how it
// goes on (its workers run again) and where it stands (report --merge --store): before, each said
// the store "holds no run" of that id and pointed at `enginectl runs`, which does not list it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test("decide, run --continue and verify of a sharded run's id, parked on its bake: refused, saying it is a sharded run and how it goes on", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [[site-0001], rest]\n  analysis: { bake: 1h }');
  const run = (await f.shard('--shards', '1')).run;
  const parked = await f.worker(run, '1/1', '--shard-wait', '1s');
  assert.equal(parked.code, 75, parked.stdout + parked.stderr);
  for (const args of [
    ['decide', '--store', f.storeUrl, '--run', run],
    ['decide', '--store', f.storeUrl, '--run', run, '--continue'],
    ['run', f.file, '--store', f.storeUrl, '--continue', run],
    ['verify', '--store', f.storeUrl, '--run', run],
  ]) {
    const r = await f.cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`${run} is a sharded run \\(enginectl shard planned it\\)`), args.join(' '));
    assert.match(r.stderr, new RegExp(`run FILE --store URL --run ${run} --shard I/N`));
    assert.match(r.stderr, new RegExp(`enginectl report --merge --store URL --run ${run}`));
    assert.doesNotMatch(r.stderr, /holds no run/);
  }
  // Nothing was recorded: the workers go on from the bake as they parked.
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });
});
