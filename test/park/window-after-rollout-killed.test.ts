// A run whose rollout ended, then parked for the window of a write after it (its park record comes
// after its rollout record), and a continue of it killed at its start. The next continue goes on
// from that park with the rollout as the parking run ended it: its analyses that passed stand.
// Found by review of the parks' one reader (journal/parks.ts): it kept a run's rollout only when the
// park came first, so this continue went back to the bake after wave 1, the rollout long done.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { killAfter, PARKED, parkFleet, runIdOf } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;

test('a continue killed at its start, its run parked for a window after its rollout ended: the next continue in the window does not go back to the bake', async (t) => {
  const f = await parkFleet(
    t,
    3,
    '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 1h }',
    "windows:\n  final-night: { cron: '0 2 * * *', duration: 2h, zone: UTC, matrix: { db: [main] } }",
    '  - id: final\n    uses: transaction-log/clear\n    matrix: { db: [main] }\n    server: site-001\n    expected: 10m',
  );
  const day = 86_400_000;
  const at = (ms: number) => f.clock.sleep(ms - f.clock.now(), never);
  await at(Math.ceil(f.clock.now() / day) * day + 5.5 * HOUR); // 05:30Z: the window (02:00-04:00) closed
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  await f.clock.sleep(HOUR + 60_000, never);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  assert.match(second.stdout, /final-night|window/, 'parked for the final write’s window');
  const third = await f.run('--continue', id);
  assert.equal(third.code, PARKED, third.stdout + third.stderr);
  killAfter(join(f.dir, 'store'), id, (r) => r.t === 'run' && r.resume === true);
  await at(Math.ceil(f.clock.now() / day) * day + 2 * HOUR + 60_000); // 02:01Z the next night
  const fourth = await f.run('--continue', id);
  assert.equal(fourth.code, 0, `the rollout was done: only the final write is left\n${fourth.stdout}${fourth.stderr}`);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
  assert.deepEqual(f.applied('/transaction-log/clear'), { 'site-001': 1 });
});
