// A lease is renewed every third of its ttl, and a renewal must reach the store in time: a ttl
// shorter than 3s (a renewal more often than once a second) is refused before anything runs, in
// the pipeline's lease: (at its line) and in a worker's --shard-ttl, never accepted and then lost
// by a live holder.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from '../shard/helpers.ts';

test('a lease ttl under 3s is refused at its line before anything runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ttl-'));
  const file = join(dir, 'leased.yml');
  writeFileSync(file, 'version: 1\nlease: { name: prod-fleet, ttl: 500ms }\nsteps:\n  - uses: transaction-log/clear\n');
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /leased\.yml:2:33 lease\.ttl: at least 3s/);
  writeFileSync(file, 'version: 1\nlease: { name: prod-fleet, ttl: 3s }\nsteps:\n  - uses: transaction-log/clear\n');
  assert.equal((await runCli(['validate', file])).code, 0);
});

test("a worker's --shard-ttl under 3s is refused (exit 2) before it registers or sends anything", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const { run } = await f.shard('--shards', '1');
  const r = await f.worker(run, '1/1', '--shard-ttl', '500ms');
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--shard-ttl 500ms: at least 3s/);
  assert.deepEqual(f.applied('/update/system'), {});
});
