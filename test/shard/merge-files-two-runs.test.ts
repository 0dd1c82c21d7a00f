// Workers' reports of two different sharded runs of one pipeline, merged as files without
// --expect-shards (report --merge a.json b.json): each report names its run (shard.run), and a
// merge of two runs' workers is no run's result. Refused (MERGE_MISMATCH), as with --expect-shards,
// never a silent "success" made of half of one rollout and half of another.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { twoShardedRuns } from './helpers.ts';

test("report --merge of two sharded runs' workers' reports without --expect-shards is refused, not merged as one fleet", async (t) => {
  const { runA, runB, a, b } = await twoShardedRuns(t);
  // With --expect-shards: refused (as it was before).
  const expected = await runCli(['report', '--merge', a[0]!, b[1]!, '--expect-shards', '2']);
  assert.equal(expected.code, 2, expected.stdout + expected.stderr);
  assert.match(expected.stderr, /MERGE_MISMATCH/);
  // Without it: shard 1 of run A and shard 2 of run B are the same two reports of two runs.
  const mixed = await runCli(['report', '--merge', a[0]!, b[1]!]);
  assert.equal(mixed.code, 2, `merged as one fleet:\n${mixed.stdout}${mixed.stderr}`);
  assert.match(mixed.stderr, /MERGE_MISMATCH/);
  assert.match(mixed.stderr, new RegExp(`${runA}[\\s\\S]*${runB}|${runB}[\\s\\S]*${runA}`));
});
