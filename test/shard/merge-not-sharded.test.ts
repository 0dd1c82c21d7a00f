// report --merge --store URL --run ID given the id of a run of the store that is not sharded (a
// one-job run, or the run a worker started for one site of a sharded run) says what that run is
// and the command that reports it, not "holds no sharded run" with a hint to plan one
// (enginectl shard). An id the store does not hold is still told as before. Exit 2.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('report --merge --store with the id of a one-job run or of a site run says it is not sharded and points to report --store --run', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  const sites = readdirSync(join(f.store, 'runs'));
  assert.equal(sites.length, 2, sites.join(' '));
  const site = sites[0]!;
  const one = await f.cli(['run', f.file, '--store', f.storeUrl]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const plain = readdirSync(join(f.store, 'runs')).find((id) => !sites.includes(id));
  assert.ok(plain, readdirSync(join(f.store, 'runs')).join(' '));

  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', plain]);
  assert.equal(merged.code, 2, merged.stdout + merged.stderr);
  assert.doesNotMatch(merged.stderr, /holds no sharded run|enginectl shard/);
  assert.match(merged.stderr, new RegExp(`run ${plain} of ${f.storeUrl} is not a sharded run: one job ran it`));
  assert.match(
    merged.stderr,
    new RegExp(`hint: enginectl report --store ${f.storeUrl} --run ${plain} renders its reports`),
  );
  // What the hint says works.
  const rendered = await f.cli(['report', '--store', f.storeUrl, '--run', plain]);
  assert.equal(rendered.code, 0, rendered.stdout + rendered.stderr);

  const siteMerged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', site]);
  assert.equal(siteMerged.code, 2, siteMerged.stdout + siteMerged.stderr);
  assert.doesNotMatch(siteMerged.stderr, /holds no sharded run/);
  assert.match(
    siteMerged.stderr,
    new RegExp(`run ${site} of ${f.storeUrl} is not a sharded run: a worker of sharded run ${run} ran one site in it`),
  );
  assert.match(
    siteMerged.stderr,
    new RegExp(
      `hint: enginectl report --merge --store ${f.storeUrl} --run ${run} reports the sharded run; enginectl report --store ${f.storeUrl} --run ${site} this site's run alone`,
    ),
  );
  const siteRendered = await f.cli(['report', '--store', f.storeUrl, '--run', site]);
  assert.equal(siteRendered.code, 0, siteRendered.stdout + siteRendered.stderr);

  // An id the store holds nothing of: as before.
  const none = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', '20200101T000000Z-000000']);
  assert.equal(none.code, 2, none.stdout + none.stderr);
  assert.match(none.stderr, /holds no sharded run 20200101T000000Z-000000/);
  assert.match(none.stderr, /hint: enginectl shard FILE --store URL --shards N writes it/);
});
