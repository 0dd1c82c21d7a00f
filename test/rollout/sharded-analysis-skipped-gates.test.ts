// A sharded run's analysis whose gates were all skipped by their `if:` read nothing: as in one
// job (test/rollout/analysis-skipped-gates.test.ts, docs/pipeline-format.md "Rollouts in waves":
// "a round in which no gate ran (each skipped by its if:) read nothing and fails"), the wave's
// verdict must not pass, and the next wave must not start.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from '../shard/helpers.ts';

test("a sharded run's analysis whose gates were all skipped by their if: does not pass, and wave 2 is not sent", async (t) => {
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m }',
    undefined,
    // The canary's update raises a critical alert: a gate that ran would see it.
    { faults: ['POST /api/devops/v1/update/system site=site-0001 raise-alert=critical:disk_full'] },
  );
  // The gate never runs.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    with: { fail-on: critical }',
      "    if: ${{ matrix.site == 'nowhere' }}\n    with: { fail-on: critical }",
    ),
  );
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
  f.server.now = clock.now;
  const run = (await f.shard('--shards', '1')).run;
  const w = await runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '24h'], {
    env: f.env,
    clock,
  });
  assert.doesNotMatch(w.stdout, /wave 1: passed/, w.stdout + w.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 }, `wave 2 sent:\n${w.stdout}${w.stderr}`);
  assert.equal(w.code, 1, w.stdout + w.stderr);
});
