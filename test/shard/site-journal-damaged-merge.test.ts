// report --merge --store of a sharded run reads each site's journal from the store: a record there
// that no run writes so (a damaged line before the end) is refused with the store's words (the
// segment's key, put it back from a copy of the store), not "this file" of `run --journal`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { shardFleet } from './helpers.ts';

test("a damaged record of a site's journal, read by report --merge --store: the store's words, naming the segment's key", async (t) => {
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]');
  const { run } = await f.shard('--shards', '1');
  const w = await f.worker(run, '1/1');
  assert.equal(w.code, 0, w.stdout + w.stderr);
  const [siteRun] = readdirSync(join(f.store, 'runs'));
  const segments = readdirSync(join(f.store, 'runs', siteRun!, 'journal')).sort();
  const key = `runs/${siteRun}/journal/${segments.findLast((s) => readFileSync(join(f.store, 'runs', siteRun!, 'journal', s), 'utf8').length > 0)}`;
  const payload = '{"t":"status",}';
  const damaged = `${payload.slice(0, -1)},"crc":"${crc32(payload).toString(16).padStart(8, '0')}"}\n`;
  writeFileSync(join(f.store, key), damaged + readFileSync(join(f.store, key), 'utf8'));
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const out = merged.stdout + merged.stderr;
  assert.notEqual(merged.code, 0, out);
  assert.doesNotMatch(out, /this file|enginectl run --journal/, out);
  assert.ok(out.includes(`${key} in ${f.storeUrl}`), `the hint names the segment's key and the store\n${out}`);
});
