// A sharded bake whose first analyst kept no server's clock (its read of the wave's Engines failed),
// judged later by a worker whose clock is 13h ahead of the servers': the bake cannot be judged
// across the two machines and is held. A sharded run's bake ends only by its workers' clocks (no
// decision ends it: decide --continue is refused for a sharded run), so the way on it names is to set
// the clock right and run the workers again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { parseFault } from '../../src/emulator/faults/parse.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from '../shard/helpers.ts';

const HOUR = 3_600_000;

test("a sharded bake with no server's clock kept, judged on a machine 13h ahead: held, with a way on a sharded run takes", async (t) => {
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0\n  analysis: { bake: 12h }',
  );
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
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

  // The first job's reads of the Engines fail: the bake's start keeps no server's clock.
  f.sites.faults.add(parseFault('GET /api/monitoring/v1/engines status=503'));
  const first = await worker(clock);
  assert.equal(first.code, 75, first.stdout + first.stderr);
  assert.match(first.stdout, /parked: waiting for the 12h bake after wave 1/);
  f.sites.faults.clear();

  await clock.sleep(HOUR, new AbortController().signal);
  const ahead = { now: () => clock.now() + 13 * HOUR, sleep: clock.sleep };
  const second = await worker(ahead);
  const out = second.stdout + second.stderr;
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 }, `wave 2 sent:\n${out}`);
  assert.equal(second.code, 75, out);
  assert.match(out, /the bake cannot be judged across the two machines/, out);
  assert.match(out, /set this machine's clock right \(NTP\) and run the workers again/, out);
  assert.doesNotMatch(out, /decide --continue/, `it names a decision a sharded run refuses:\n${out}`);
});
