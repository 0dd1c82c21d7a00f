// decide reads whether a runner holds the run by the run's own lease, as a waiter for it does
// (store/lapse.ts): a lease whose expiry passed on the decider's clock alone may be a live
// runner's whose clock is behind (less than the ttl apart: what docs/reliability.md relies on).
// Read lapsed, decide records its decision in the middle of that runner's journal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Clock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { heldFleet } from './held-fleet.ts';
import { PARKED, runIdOf } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';

test('decide on a clock 90s ahead of a continue under way (its write held, its own lease of 2m last renewed 45s before): refused, JOURNAL_LOCKED, nothing recorded, as a waiter for that lease would not take it yet', async (t) => {
  const { f, holdNext } = await heldFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const ended = await f.decide(id, '--continue', '--reason', 'end the bake');
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const decisions = () => f.records(id).filter((r) => r.t === 'decide').length;

  const h = holdNext((method, path) => method === 'POST' && path === `/sites/site-002${UPDATE}`);
  const going = f.run('--continue', id);
  await h.reached;
  // 45s pass on the runner's clock with no renewal (paused, or its heartbeat not yet due): its lease holds until 75s from now.
  await f.clock.sleep(45_000, new AbortController().signal);
  const ahead: Clock = { now: () => f.clock.now() + 90_000, sleep: f.clock.sleep };
  const abort = await runCli(['decide', '--store', f.storeUrl, '--run', id, '--abort', '--reason', 'stop it'], {
    env: f.env,
    clock: ahead,
  });
  const out = abort.stdout + abort.stderr;
  h.release();
  const done = await going;
  assert.equal(abort.code, 2, out);
  assert.match(abort.stderr, /JOURNAL_LOCKED/);
  assert.equal(decisions(), 1, 'the refused abort recorded nothing');
  assert.equal(done.code, 0, done.stdout + done.stderr);
});
