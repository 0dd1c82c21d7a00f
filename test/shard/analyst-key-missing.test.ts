// A wave's analyst records are a sequence of create-only keys enginectl never removes: one missing
// below the newest listed was removed by something else (an expiry rule on shards/, a hand). The
// worker reading the election says so, naming the key as not there, never as a record enginectl
// did not write. Before, the key read as absent was parsed as a damaged record: "is not an
// analyst's record of enginectl", its hint to read it with another client, "the same both times".
// A directory store; the CLI in this process, on a clock the test moves.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { realClock } from '../../src/app/clock.ts';
import { shardOf as shardOfSite } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

test("an analyst's record removed from the store below the newest: STORE_DAMAGED naming it as not there, never as not enginectl's", async (t) => {
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], bake: 1h, count: 1 }',
  );
  const run = (await f.shard('--shards', '2')).run;
  const owner = shardOfSite('site-0001', 2) === 0 ? '1/2' : '2/2';
  const other = owner === '1/2' ? '2/2' : '1/2';
  const real = realClock();
  let skipped = 0;
  const clock = { now: () => real.now() + skipped, sleep: (ms: number) => Promise.resolve(void (skipped += ms)) };
  // The sites' Date moves with the workers' clock: the time a later job finds has passed for the servers too.
  f.server.now = clock.now;
  const worker = (spec: string) =>
    runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-wait', '1m', '--shard-ttl', '1h'],
      { env: f.env, clock },
    );
  // The first parks on the bake: the analyst's record (1), then its place given up (2).
  const first = await worker(owner);
  assert.equal(first.code, 75, first.stdout + first.stderr);
  const analysts = join(f.store, 'shards', run, 'waves', '1', 'analyst');
  rmSync(join(analysts, '00000001'));
  skipped += 3_600_000;
  const second = await worker(other);
  const said = second.stdout + second.stderr;
  assert.equal(second.code, 1, said);
  assert.match(said, /code: STORE_DAMAGED/);
  assert.match(said, /waves\/1\/analyst\/00000001 is not there, below the newest listed \(00000002\)/);
  assert.doesNotMatch(said, /is not an analyst's record of enginectl|the same both times/);
  assert.match(said, /enginectl removes no key/);
});
