// A retry said at a park is acted on once: by the continue after it. The runs are told apart in
// the journal's order, never by their runners' clocks: a continue whose clock was 10 minutes
// behind the first runner's acted on the retry, failed again, and parked for the bake; before,
// the continue after the bake read the retry as not acted on (that run's start was stamped
// before the run the retry was said at) and sent the write a third time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Clock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkedOnRefusal } from './helpers.ts';

const ROLLOUT = `  over: site
  waves: [[site-001, site-002], rest]
  max-failures: 1
  on-failure: decide
  analysis: { bake: 12h }`;

test('decide --retry site-001; the continue that acts on it runs on a clock 10 minutes behind and fails again; the continue after the bake does not send it a third time', async (t) => {
  const { f, id } = await parkedOnRefusal(t, ROLLOUT, 'site-001', 5);
  const sent = () =>
    f.sites
      .started()
      .get('site-001')
      ?.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system')).length ?? 0;
  assert.equal((await f.decide(id, '--retry', 'site-001', '--reason', 'a transient refusal')).code, 0);
  const behind: Clock = { now: () => f.clock.now() - 10 * 60_000, sleep: f.clock.sleep };
  const second = await runCli(['run', f.file, '--store', f.storeUrl, '--continue', id], { env: f.env, clock: behind });
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  assert.equal(sent(), 2, 'sent again once, on the word to retry it');
  await f.clock.sleep(13 * 3_600_000, new AbortController().signal);
  const third = await f.run('--continue', id);
  assert.equal(sent(), 2, `the retry was acted on: its second failure stands\n${third.stdout}`);
  assert.equal(third.code, 1, third.stdout + third.stderr);
});
