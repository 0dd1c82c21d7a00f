// A retried index waits for its earlier attempt's lease while that attempt may still be alive: up
// to the lease's ttl and a heartbeat (--shard-ttl 60s: 80 s). Before, that wait ignored
// --shard-wait: with --shard-wait 20s the worker waited 80 s on its clock, then exited 69, so a
// CI job limit set from --shard-wait could kill it. Now the wait is the shorter of the two, counted
// in the job's --shard-wait, and its end says it waited its --shard-wait; the worker sent nothing
// (exit 69, SHARD_UNAVAILABLE: run the same index again once that attempt has ended).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { workerLease } from '../../src/shard/manifest.ts';
import { acquireLease } from '../../src/store/lease.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

test("a retried index waits for its earlier attempt's live lease no longer than --shard-wait (on its clock), then exits 69 having sent nothing", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1')).run;
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
  // The index's earlier attempt, alive: its lease held for an hour on this clock.
  const earlier = await acquireLease(new DirectoryStore(f.storeUrl), workerLease(run, 0), {
    holder: { runId: '20270301T115900Z-0123456789ab', actor: 'ci', host: 'runner-1' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => earlier.release().catch(() => undefined));
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'];
  const r = await runCli([...args, '--shard-ttl', '60s', '--shard-wait', '20s'], { env: f.env, clock });
  const out = r.stdout + r.stderr;
  assert.equal(r.code, 69, out);
  assert.match(out, /code: SHARD_UNAVAILABLE/);
  // It waited what was left of its --shard-wait, not its ttl and a heartbeat (80 s).
  assert.ok(clock.advanced() <= 20_000, `waited ${clock.advanced()} ms on its clock`);
  assert.ok(clock.advanced() >= 15_000, `waited ${clock.advanced()} ms on its clock`);
  assert.match(out, /--shard-wait 20s/);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing was sent');
});
