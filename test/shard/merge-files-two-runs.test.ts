// Workers' reports of two different sharded runs of one pipeline, merged as files without
// --expect-shards (report --merge a.json b.json): each report names its run (shard.run), and a
// merge of two runs' workers is no run's result. Refused (MERGE_MISMATCH), as with --expect-shards,
// never a silent "success" made of half of one rollout and half of another.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

test("report --merge of two sharded runs' workers' reports without --expect-shards is refused, not merged as one fleet", async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  const worker = (run: string, spec: string, json: string) =>
    runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--report-json', json], {
      env: f.env,
    });
  const runA = (await f.shard('--shards', '2')).run;
  const a = [1, 2].map((i) => join(f.dir, `a${i}.json`));
  for (const r of await Promise.all(a.map((json, i) => worker(runA, `${i + 1}/2`, json))))
    assert.equal(r.code, 0, r.stdout + r.stderr);
  const runB = (await f.shard('--shards', '2', '--new-run')).run;
  assert.notEqual(runA, runB);
  const b = [1, 2].map((i) => join(f.dir, `b${i}.json`));
  for (const r of await Promise.all(b.map((json, i) => worker(runB, `${i + 1}/2`, json))))
    assert.equal(r.code, 0, r.stdout + r.stderr);

  // With --expect-shards: refused (this holds on main).
  const expected = await runCli(['report', '--merge', a[0]!, b[1]!, '--expect-shards', '2']);
  assert.equal(expected.code, 2, expected.stdout + expected.stderr);
  assert.match(expected.stderr, /MERGE_MISMATCH/);
  // Without it: shard 1 of run A and shard 2 of run B are the same two reports of two runs.
  const mixed = await runCli(['report', '--merge', a[0]!, b[1]!]);
  assert.equal(mixed.code, 2, `merged as one fleet:\n${mixed.stdout}${mixed.stderr}`);
  assert.match(mixed.stderr, /MERGE_MISMATCH/);
  assert.match(mixed.stderr, new RegExp(`${runA}[\\s\\S]*${runB}|${runB}[\\s\\S]*${runA}`));
});
