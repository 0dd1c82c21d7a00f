// An entry of a wave's log of a kind this enginectl does not know is a newer enginectl's (a
// record of the store of a later version is no damage: never remove it, docs/reliability.md).
// Before, it was STORE_DAMAGED, "not an entry of a wave's log of enginectl", hinting to "put the
// record back, or plan the rollout again": advice that would lose the newer workers' record. Now
// it is STORE_VERSION (exit 2): a newer enginectl wrote it, run the jobs with that version.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sequenceKey } from '../../src/store/store.ts';
import { shardFleet } from './helpers.ts';

test("a wave log's entry of a kind this enginectl does not know is a newer enginectl's: STORE_VERSION, never put back or removed", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1')).run;
  const w = await f.worker(run, '1/1');
  assert.equal(w.code, 0, w.stdout + w.stderr);
  // A newer enginectl's entry, appended to wave 1's log after those there.
  const log = join(f.store, 'shards', run, 'waves', '1', 'log');
  const next = sequenceKey(readdirSync(log).filter((k) => /^\d+$/.test(k)).length + 1);
  writeFileSync(join(log, next), JSON.stringify({ kind: 'pause', by: 'ops', at: Date.now() }));
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const out = merged.stdout + merged.stderr;
  assert.equal(merged.code, 2, out);
  assert.match(out, /code: STORE_VERSION/);
  assert.match(
    out,
    new RegExp(
      `waves/1/log/${next} is an entry of a wave's log of kind "pause", which this enginectl does not know: a newer enginectl wrote it`,
    ),
  );
  assert.match(out, /with that enginectl or a later one/);
  assert.doesNotMatch(out, /put the record back|plan the rollout again/);
});
