// The action's `merge` input over the workers' reports of a sharded run, downloaded as artifacts
// (docs/github-actions.md): a report of another sharded run among them (an artifact of an earlier
// workflow run, or of another run of the same pipeline) makes no run's result. Refused, naming
// both runs, never a green fleet made of half of one rollout and half of another.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { twoShardedRuns } from '../shard/helpers.ts';

const ROOT = actionDef('enginectl');

test("the action's merge of two sharded runs' workers' reports is refused, not a green fleet", async (t) => {
  const { runA, runB, a, b } = await twoShardedRuns(t);
  const job = await runActionInProcess(ROOT, {
    inputs: { merge: 'shards' },
    files: { 'shards/shard-1.json': readFileSync(a[0]!, 'utf8'), 'shards/shard-2.json': readFileSync(b[1]!, 'utf8') },
  });
  assert.notEqual(job.outputs.outcome, 'success', `merged as one green fleet: ${JSON.stringify(job.outputs)}`);
  assert.notEqual(job.code, 0, job.log.join('\n'));
  assert.match(job.failed.join('\n'), new RegExp(`${runA}|${runB}`));
});
