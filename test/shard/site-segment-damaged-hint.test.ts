// A segment of a site's journal in the store that is cut or altered: STORE_DAMAGED, its hint
// saying what holds the same records. Before, it pointed to "its runner's local journal file
// (--journal)", which a shard worker does not keep (nor does a run of the store not given
// --journal: its local copy goes as it ends). Now it says where a copy may be: the store's own
// (S3 versioning, a backup), and a --journal F file only when its runner was given one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test("a site's journal segment altered in the store: the hint does not send the operator to a local journal file its worker never kept", async (t) => {
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1')).run;
  const w = await f.worker(run, '1/1');
  assert.equal(w.code, 0, w.stdout + w.stderr);
  const [siteRun] = readdirSync(join(f.store, 'runs'));
  const segments = join(f.store, 'runs', siteRun!, 'journal');
  const first = join(segments, readdirSync(segments).sort()[0]!);
  writeFileSync(first, readFileSync(first, 'utf8').replace('"t":"run"', '"t":"RUN"'));
  const r = await f.cli(['report', '--store', f.storeUrl, '--run', siteRun!]);
  const out = r.stdout + r.stderr;
  assert.equal(r.code, 1, out);
  assert.match(out, /code: STORE_DAMAGED/);
  assert.match(out, /is not a segment of a journal of enginectl \(its line 1 is cut or altered\)/);
  assert.doesNotMatch(out, /its runner's local journal file \(--journal\) holds the same records/);
  assert.match(out, /a shard worker keeps none/);
  assert.match(out, /S3 versioning, a backup/);
});
