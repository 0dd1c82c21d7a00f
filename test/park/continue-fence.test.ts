// A `run --continue` that does not go on writes nothing in the run's journal: one that parks again
// (no decision yet: the cron pattern, every few minutes) and one refused (the run is not parked)
// leave its segments as they were. Only a runner that goes on, its lease held, fences the journal
// (app/stored-run.ts), so a poll never stops a `decide` or a live run, and never grows the journal.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const segments = (store: string, id: string) => readdirSync(join(store, 'runs', id, 'journal')).sort();

test('a --continue that parks again, or is refused, adds no segment to the journal; the one that goes on, its lease held, fences it first and finishes the run', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  on-failure: decide`,
    'lease: { name: fleet }',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, times: 1, site: 'site-002' });
  const parked = await f.run();
  assert.equal(parked.code, PARKED, parked.stdout + parked.stderr);
  const id = runIdOf(parked.stdout)!;
  const store = new URL(f.storeUrl).pathname;
  const before = segments(store, id);
  for (let i = 0; i < 3; i++) {
    const again = await f.run('--continue', id);
    assert.equal(again.code, PARKED, again.stdout + again.stderr);
  }
  assert.deepEqual(segments(store, id), before, 'three polls that parked again wrote nothing');
  const decided = await f.decide(id, '--retry', 'site-002', '--accept-cannot-tell', '--reason', 'checked by hand');
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  const decidedSegments = segments(store, id);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const finished = segments(store, id);
  // The one that went on, its lease held, fenced the journal first: an empty segment, then its records.
  const added = finished.slice(decidedSegments.length);
  assert.ok(added.length >= 2, `the fence and the run's records: ${added.join(', ')}`);
  assert.equal(statSync(join(store, 'runs', id, 'journal', added[0]!)).size, 0, 'the fence is empty');
  assert.ok(statSync(join(store, 'runs', id, 'journal', added[1]!)).size > 0);
  const refused = await f.run('--continue', id);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.deepEqual(segments(store, id), finished, 'a --continue refused wrote nothing');
});
