// A sharded run's bake is judged by the worker that stands as analyst, often a later job on
// another runner: a runner whose clock is 13h ahead must not end a 12h bake 1h in (the one-job
// `run --continue` judges a bake on its own clock and on a server's of the wave, bake-clock.ts;
// docs/pipeline-format.md "Parked runs"). The servers and the first job share one simulated clock;
// the second job reads it 13h ahead.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from '../shard/helpers.ts';

const HOUR = 3_600_000;

test('a sharded worker on a machine 13h ahead, 1h into a 12h bake: wave 2 is not sent', async (t) => {
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0\n  analysis: { bake: 12h }',
  );
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
  // The sites' Date is the true time, the clock the first job runs on.
  f.server.now = clock.now;
  const run = (await f.shard('--shards', '1')).run;
  const worker = (c: { now: () => number; sleep: typeof clock.sleep }) =>
    runCli(
      [
        'run',
        f.file,
        '--store',
        f.storeUrl,
        '--run',
        run,
        '--shard',
        '1/1',
        '--shard-wait',
        '30m',
        '--shard-ttl',
        '24h',
      ],
      { env: f.env, clock: c },
    );

  const first = await worker(clock);
  assert.equal(first.code, 75, first.stdout + first.stderr);
  assert.match(first.stdout, /parked: waiting for the 12h bake after wave 1/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });

  await clock.sleep(HOUR, new AbortController().signal);
  // The next job, 1h later, on a runner whose clock is 13h ahead of the servers'.
  const ahead = { now: () => clock.now() + 13 * HOUR, sleep: clock.sleep };
  const second = await worker(ahead);
  assert.deepEqual(
    f.applied('/update/system'),
    { 'site-0001': 1 },
    `wave 2 sent 1h into the 12h bake:\n${second.stdout}${second.stderr}`,
  );
  assert.equal(second.code, 75, second.stdout + second.stderr);
});
