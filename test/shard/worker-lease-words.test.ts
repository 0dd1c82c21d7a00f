// A worker's lease is named from 0 (`--shard 1/2` holds RUN.shard-0: the names runs already in a
// store hold, which every version's workers of a run must agree on), while an operator speaks of
// shard I/N from 1. Before, nothing said which shard a worker lease was: lease status showed a
// holder, the docs told an operator whose shard I runner was gone to release RUN.shard-I, and doing
// so released the live worker of the next shard (exit 69) while the dead one's lease stayed held.
// Now every word that names a worker lease says its shard, lease status and release among them,
// release says whether its holder renewed it lately (a live worker), and the docs name the store's
// names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

const docs = (name: string) => readFileSync(join(import.meta.dirname, '../../docs', name), 'utf8');

test("lease status and release of a worker lease say which shard it is, release that its holder is alive; the worker's last words name its shard", async (t) => {
  let arrived!: () => void;
  let letGo!: () => void;
  const atServer = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (letGo = resolve));
  t.after(letGo);
  let held = false;
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', {
    after: async (method, path) => {
      if (held || method !== 'POST' || !path.endsWith('/update/system')) return;
      held = true;
      arrived();
      await released;
    },
  });
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const worker = f.worker(run, '1/2', '--shard-ttl', '1h');
  await atServer;

  const status = await f.cli(['lease', 'status', '--store', f.storeUrl, `${run}.shard-0`]);
  assert.equal(status.code, 0, status.stdout + status.stderr);
  assert.match(status.stdout, new RegExp(`^lease ${run}\\.shard-0 \\(shard 1/2 of run ${run}\\): held by `, 'm'));
  const other = await f.cli(['lease', 'status', '--store', f.storeUrl, `${run}.shard-1`]);
  assert.match(other.stdout, new RegExp(`^lease ${run}\\.shard-1 \\(shard 2/2 of run ${run}\\): never taken`, 'm'));
  // A name one past the last shard (an operator counting from 1) is no worker's: said so, with the names.
  const past = await f.cli(['lease', 'status', '--store', f.storeUrl, `${run}.shard-2`]);
  assert.match(
    past.stdout,
    /no shard of run \S+ \(2 shards: \S+\.shard-0 for --shard 1\/2 \.\. \S+\.shard-1 for --shard 2\/2\)/,
  );

  const release = await f.cli(['lease', 'release', '--store', f.storeUrl, `${run}.shard-0`, '--reason', 'runner lost']);
  assert.equal(release.code, 0, release.stdout + release.stderr);
  assert.match(
    release.stdout,
    new RegExp(`^lease ${run}\\.shard-0 \\(shard 1/2 of run ${run}\\): released by \\S+: runner lost`, 'm'),
  );
  assert.match(
    release.stdout,
    /its holder renewed it \S+ ago: the worker of shard 1\/2 was alive then; it stops before its next write \(exit 69\)/,
  );
  letGo();
  const w = await worker;
  assert.equal(w.code, 69, w.stdout + w.stderr);
  assert.match(w.stdout + w.stderr, new RegExp(`lease ${run}\\.shard-0 \\(shard 1/2\\) is no longer this run's`));

  // The docs name the lease the store holds: --shard 1/N holds RUN.shard-0.
  for (const doc of ['pipeline-format.md', 'reliability.md']) {
    assert.doesNotMatch(docs(doc), /RUN\.shard-I\b/, doc);
    assert.match(docs(doc), /`--shard I\/N` holds `RUN\.shard-K`, K = I − 1/, doc);
  }
});
