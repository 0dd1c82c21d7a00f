// `enginectl shard --shards N` over a fleet of fewer sites than N: planned as asked (not refused),
// but said on stderr in one line. Before, nothing was said: with static assignment the shards that
// own no site start their CI jobs, which do nothing; in a queue, the workers past the sites find
// nothing to claim. Now the line says how many (of a static run: the shards no site hashes to; of a
// queue: at least N minus the sites), and that --shards M, M the sites, would do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardOf } from '../../src/shard/manifest.ts';
import { shardFleet, sitesOf } from './helpers.ts';

/** The lines of stderr that say the shards over the sites. */
const overLines = (stderr: string) =>
  stderr.split('\n').filter((line) => /own no site|find no site to claim/.test(line));

test('shard --shards 10 over 3 sites, static: planned, one line says how many shards own no site and that --shards 3 would do', async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [rest]');
  const r = await f.shard('--shards', '10');
  assert.equal(r.code, 0, r.stderr);
  const idle = 10 - new Set(sitesOf(3).map((site) => shardOf(site, 10))).size;
  const lines = overLines(r.stderr);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, new RegExp(`^enginectl: warning: ${idle} of the 10 shards own no site \\(3 site\\(s\\)`));
  assert.match(lines[0]!, /--shards 3 would do/);
  // Every shard is still in the fan-out, as asked.
  assert.match(r.stdout, new RegExp(`--run ${r.run} --shard 10/10$`, 'm'), r.stdout);
});

test('shard --shards 5 over 2 sites, queue: planned, one line says at least 3 workers find no site to claim', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const r = await f.shard('--shards', '5', '--assign', 'queue');
  assert.equal(r.code, 0, r.stderr);
  const lines = overLines(r.stderr);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^enginectl: warning: at least 3 of the 5 workers will find no site to claim \(2 site\(s\)/);
  assert.match(lines[0]!, /--shards 2 would do/);
});

test('shard --shards N no more than the sites: nothing said of shards without a site', async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [rest]');
  for (const args of [
    ['--shards', '3', '--new-run'],
    ['--shards', '2', '--assign', 'queue', '--new-run'],
  ]) {
    const r = await f.shard(...args);
    assert.deepEqual(overLines(r.stderr), [], r.stderr);
  }
});
