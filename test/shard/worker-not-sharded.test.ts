// A worker (run --shard I/N) given the id of a run of the store that is not sharded (a one-job run,
// or the run a worker started for one site of a sharded run) says what that run is and what to run
// instead, as report --merge --store does (test/shard/merge-not-sharded.test.ts), not "holds no
// sharded run" with a hint to plan one (enginectl shard). Nothing is sent; exit 2.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('a worker given the id of a one-job run or of a site run says it is not sharded and what to run instead (exit 2, nothing sent)', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  const sites = readdirSync(join(f.store, 'runs'));
  assert.equal(sites.length, 2, sites.join(' '));
  const site = sites[0]!;
  const one = await f.cli(['run', f.file, '--store', f.storeUrl]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const plain = readdirSync(join(f.store, 'runs')).find((id) => !sites.includes(id))!;
  const sent = () => JSON.stringify(f.applied('/update/system'));
  const before = sent();

  const onPlain = await f.worker(plain, '1/1');
  const saidPlain = onPlain.stdout + onPlain.stderr;
  assert.equal(onPlain.code, 2, saidPlain);
  assert.doesNotMatch(saidPlain, /holds no sharded run|enginectl shard FILE/, saidPlain);
  assert.match(onPlain.stderr, new RegExp(`run ${plain} of ${f.storeUrl} is not a sharded run: one job ran it`));
  assert.match(
    onPlain.stderr,
    new RegExp(
      `hint: a run of one job goes on in one job, not as a worker: enginectl run FILE --store ${f.storeUrl} --resume ${plain} \\(--continue ${plain} when it parked: enginectl decide --store ${f.storeUrl} --run ${plain} says what it waits for\\)`,
    ),
    saidPlain,
  );
  assert.match(onPlain.stderr, /code: STORE_REFUSED\n$/, saidPlain);

  const onSite = await f.worker(site, '1/1');
  const saidSite = onSite.stdout + onSite.stderr;
  assert.equal(onSite.code, 2, saidSite);
  assert.doesNotMatch(saidSite, /holds no sharded run/, saidSite);
  assert.match(
    onSite.stderr,
    new RegExp(`run ${site} of ${f.storeUrl} is not a sharded run: a worker of sharded run ${run} ran one site in it`),
    saidSite,
  );
  assert.match(
    onSite.stderr,
    new RegExp(
      `hint: run the worker with the sharded run's id: enginectl run FILE --store ${f.storeUrl} --run ${run} --shard I/N \\(its workers go on with this site's run\\)`,
    ),
    saidSite,
  );
  assert.equal(sent(), before, 'nothing sent');

  // An id the store holds nothing of: as before.
  const none = await f.worker('20200101T000000Z-000000', '1/1');
  assert.equal(none.code, 2, none.stdout + none.stderr);
  assert.match(none.stderr, /holds no sharded run 20200101T000000Z-000000/);
  assert.match(none.stderr, /hint: enginectl shard FILE --store URL --shards N writes it/);
});
