// A write that does not fit its window, in a run with a run store, parks the run until the next
// window it fits in (exit 75, a park record `for: window`), instead of failing: a --continue
// before that opening parks again (nothing re-sent, the wait counted from the first park); one at
// or after it goes on, its first write out within one poll of the opening. In a rollout the
// values not started stay unstarted and the continue picks them up. All on the simulated clock
// the emulator and the runs share.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';
import { nightly } from './nightly.ts';
import { runCli } from '../helpers/cli.ts';
import type { Report } from '../../src/report/index.ts';

const MINUTE = 60_000;
/** How often the scheduled job that continues parked runs polls. */
const POLL = 5 * MINUTE;
const never = new AbortController().signal;

test('a write that would overrun its window parks the run until the next window; an early continue parks again; at the opening it goes on within one poll, nothing re-sent', async (t) => {
  // 05:00Z: the short write fits before 06:00; the long one (2h + 10%) would overrun by 1h12m.
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.match(first.stdout, /^parked: waiting for the next window "long" fits in, at 2026-03-11T02:00:00.000Z$/m);
  assert.match(first.stdout, /--continue \S+ at or after 2026-03-11T02:00:00.000Z/);
  const report = first.report!;
  assert.equal(report.parked?.for, 'window');
  assert.equal(report.parked?.until, '2026-03-11T02:00:00.000Z');
  assert.match(report.parked!.since, /^2026-03-10T05:00/);
  const step = (r: Report, id: string) => r.steps.find((s) => s.id === id)!;
  assert.equal(step(report, 'short').outcome, 'success');
  assert.equal(step(report, 'long').outcome, 'cancelled');
  assert.equal(step(report, 'long').error?.code, 'WINDOW_PARKED');
  assert.match(
    step(report, 'long').error!.message,
    /would overrun its window .* by 1h12m\S*; the next window it fits in opens at 2026-03-11T02:00:00.000Z/,
  );
  assert.equal(step(report, 'long').window?.next, '2026-03-11T02:00:00.000Z');
  assert.equal(step(report, 'after').error?.code, 'WINDOW_PARKED', 'a step after the park is not started');
  assert.equal(report.outcome, 'success', 'what ran succeeded: parked is neither green nor red');
  assert.equal(f.clears(), 1);
  // What the docs' scheduled jobs pick the runs to continue by (awk '/waiting for the next window/ {print $1}').
  const listed = await runCli(['runs', '--store', f.storeUrl, '--parked'], { clock: f.clock });
  const line = listed.stdout.split('\n').find((l) => /waiting for the next window/.test(l));
  assert.equal(line?.split(/\s+/)[0], id, listed.stdout);

  // An hour before the opening: parked again, the wait still counted from the first park, nothing re-sent.
  await f.clock.sleep(Date.parse('2026-03-11T01:00:00Z') - f.clock.now(), never);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.equal(early.report!.parked?.since, report.parked!.since, 'the wait counts from the first park');
  assert.equal(early.report!.parked?.until, '2026-03-11T02:00:00.000Z');
  assert.equal(step(early.report!, 'short').resume, 'earlier-run');
  assert.equal(f.clears(), 1, 'nothing done is sent again');

  // The scheduled job's first poll after the opening (some time within POLL of it): the write goes out at once.
  await f.clock.sleep(Date.parse('2026-03-11T02:00:00Z') + POLL / 2 - f.clock.now(), never);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.equal(done.report!.parked, null);
  const long = step(done.report!, 'long');
  assert.equal(long.outcome, 'success');
  assert.equal(long.window?.verdict, 'fits');
  assert.ok(Date.parse(long.window!.at) - Date.parse('2026-03-11T02:00:00Z') < POLL, long.window!.at);
  assert.equal(step(done.report!, 'short').resume, 'earlier-run');
  assert.equal(f.clears(), 2, 'the short write once, the long one once');
});

test('a write refused under continue-on-error before the park is not sent again by the continue: the run went past it, as its report says', async (t) => {
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace('    expected: 10m\n', '    expected: 10m\n    continue-on-error: true\n'),
  );
  // The short write refused (409: known not applied): a failure the run goes past.
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', status: 409, times: 1 });
  const sent = () =>
    f.sites
      .started()
      .get('site-001')
      ?.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transaction-log/clear')).length ?? 0;
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const short = first.report!.steps.find((s) => s.id === 'short')!;
  assert.equal(short.outcome, 'failure');
  assert.equal(short.continuedOnError, true);
  assert.equal(sent(), 1);

  await f.clock.sleep(Date.parse('2026-03-11T02:00:00Z') + POLL / 2 - f.clock.now(), never);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const again = done.report!.steps.find((s) => s.id === 'short')!;
  assert.equal(again.outcome, 'failure', 'the refused write stands as the run went past it');
  assert.equal(again.resume, 'earlier-run');
  assert.equal(sent(), 2, 'the refused short write once, the long one once');
  assert.equal(f.clears(), 1, 'only the long write applied');
});

test('a write refused before an if: always() write parked the run: the continue sends the always() write, never the refused one again; the run fails as it did', async (t) => {
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace('    expected: 2h\n', '    expected: 2h\n    if: always()\n'),
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', status: 409, times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal(first.report!.steps.find((s) => s.id === 'short')!.outcome, 'failure');
  await f.clock.sleep(Date.parse('2026-03-11T02:00:00Z') + POLL / 2 - f.clock.now(), never);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, done.stdout + done.stderr);
  const short = done.report!.steps.find((s) => s.id === 'short')!;
  assert.equal(short.outcome, 'failure');
  assert.equal(short.resume, 'earlier-run');
  assert.equal(done.report!.steps.find((s) => s.id === 'long')!.outcome, 'success');
  assert.equal(f.clears(), 1, 'the long write applied; the refused one not sent again');
});

test('without a store the write that does not fit fails as before, naming the next window', async (t) => {
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  const r = await f.cli([]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const long = r.report!.steps.find((s) => s.id === 'long')!;
  assert.equal(long.error?.code, 'WINDOW_CLOSED');
  assert.match(long.error!.message, /the next window it fits in opens at 2026-03-11T02:00:00.000Z/);
  assert.equal(r.report!.parked, null);
});

test('a rollout: the value whose write does not fit parks the run; the values after it stay unstarted and the continue picks them up', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  max-parallel: 1`,
    `windows:\n  site-002-night: { cron: '0 2 * * *', duration: 2h, zone: UTC, matrix: { site: [site-002] } }`,
  );
  // 05:30Z on the fleet's clock: site-002's window is closed until 02:00Z; the others have none.
  const day = 86_400_000;
  const now = f.clock.now();
  const at = now - (now % day) + 5.5 * 3_600_000;
  await f.clock.sleep((at > now ? at : at + day) - now, never);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const report = first.report!;
  assert.equal(report.parked?.for, 'window');
  assert.equal(report.parked?.wave, 2);
  assert.deepEqual(
    report.rollout!.waves.map((w) => w.outcome),
    ['done', 'parked'],
  );
  const update = (r: Report, site: string) => r.steps.find((s) => s.id === 'update' && s.matrix?.site === site)!;
  assert.equal(update(report, 'site-002').error?.code, 'WINDOW_PARKED');
  assert.equal(update(report, 'site-003').error?.code, 'WINDOW_PARKED');
  assert.equal(update(report, 'site-003').startedAt, null, 'site-003 was not started');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });

  await f.clock.sleep(Date.parse(report.parked!.until!) - f.clock.now() + MINUTE, never);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(
    done.report!.rollout!.waves.map((w) => w.outcome),
    ['done', 'done'],
  );
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test("a wave whose failure spends its budget halts (or, with on-failure: decide, parks for a decision) even when another of its writes waits for its window: the window's park never hides the failure", async (t) => {
  for (const decides of [false, true]) {
    const f = await parkFleet(
      t,
      3,
      `  over: site\n  waves: [[site-001, site-002], rest]\n  max-parallel: 2\n  max-failures: 0${decides ? '\n  on-failure: decide' : ''}`,
      `windows:\n  site-002-night: { cron: '0 2 * * *', duration: 2h, zone: UTC, matrix: { site: [site-002] } }`,
    );
    f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 409, site: 'site-001' });
    // 05:30Z on the fleet's clock: site-002's window is closed until 02:00Z.
    const day = 86_400_000;
    const now = f.clock.now();
    const at = now - (now % day) + 5.5 * 3_600_000;
    await f.clock.sleep((at > now ? at : at + day) - now, never);
    const first = await f.run();
    const report = first.report!;
    if (decides) {
      assert.equal(first.code, PARKED, first.stdout + first.stderr);
      assert.equal(report.parked?.for, 'decision', JSON.stringify(report.parked));
      assert.match(first.stdout, /^parked: waiting for a decision on wave 1: site-001 failed$/m);
    } else {
      assert.equal(first.code, 1, first.stdout + first.stderr);
      assert.equal(report.parked, null);
      assert.equal(report.rollout!.halted?.wave, 1);
      assert.match(first.stdout, /the rollout halted at wave 1/);
    }
    assert.equal(report.rollout!.waves[1]!.outcome, 'not-started');
    // site-002 waited for its window; the run did not park for it, and nothing it says claims so.
    const waited = report.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-002')!;
    assert.equal(waited.error?.code, 'WINDOW_PARKED');
    assert.match(waited.error!.message, /the next window it fits in opens at \S+Z/);
    const said = JSON.stringify(report.steps) + first.stdout + first.stderr;
    assert.doesNotMatch(
      said,
      /the run parks until|the run parked until/,
      'a halted run (or one parked for a decision) is not parked for a window',
    );
    assert.deepEqual(f.applied('/update/system'), {}, 'nothing applied: site-001 refused, site-002 not started');
    // Later, site-002's window open: nothing goes on without the operator's word.
    await f.clock.sleep(day, never);
    const id = runIdOf(first.stdout);
    const again = id ? await f.run('--continue', id) : await f.run('--resume', id ?? '');
    assert.notEqual(again.code, 0, again.stdout + again.stderr);
    assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
  }
});

test('decide on a run parked for its window lists it without a wave and refuses a decision: the window opens on its clock, or a freeze is overridden', async (t) => {
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const decide = (...args: string[]) =>
    runCli(['decide', '--store', f.storeUrl, '--run', id, ...args], { clock: f.clock });
  const listed = await decide();
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(
    listed.stdout,
    new RegExp(`^run ${id}: parked since \\S+, waiting for the next window "long" fits in`, 'm'),
  );
  const refused = await decide('--continue', '--reason', 'go');
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /--continue: run \S+ waits for its window .*, not a decision/);
  assert.match(refused.stderr, /--continue \S+ at or after 2026-03-11T02:00:00.000Z, or with --override-freeze/);
  assert.equal(f.clears(), 1, 'nothing sent by decide');
});

test("a rollout: a value that failed within its wave's budget before the window park is not sent again by the continue", async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001, site-002], rest]\n  max-parallel: 1\n  max-failures: 1`,
    `windows:\n  site-003-night: { cron: '0 2 * * *', duration: 2h, zone: UTC, matrix: { site: [site-003] } }`,
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 409, site: 'site-001', times: 1 });
  const day = 86_400_000;
  const now = f.clock.now();
  const at = now - (now % day) + 5.5 * 3_600_000;
  await f.clock.sleep((at > now ? at : at + day) - now, never);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal(first.report!.parked?.wave, 2);
  assert.deepEqual(f.applied('/update/system'), { 'site-002': 1 });
  await f.clock.sleep(Date.parse(first.report!.parked!.until!) - f.clock.now() + MINUTE, never);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, done.stdout + done.stderr);
  assert.deepEqual(
    done.report!.rollout!.waves.map((w) => [w.outcome, w.failed]),
    [
      ['failed-within-budget', ['site-001']],
      ['done', []],
    ],
  );
  const update = done.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-001')!;
  assert.equal(update.outcome, 'failure', 'site-001 refused once, not sent again');
  assert.equal(update.resume, 'earlier-run');
  // The terminal says it failed then, not that it was done.
  assert.match(done.stdout, /^✖ \[1\/2\] Update site-001 {2}failed in an earlier run$/m);
  assert.deepEqual(f.applied('/update/system'), { 'site-002': 1, 'site-003': 1 });
});

test('decide --after 1h --then continue at a window park is refused in the words given (--after 1h --then continue), nothing recorded', async (t) => {
  const f = await nightly(t, '2026-03-10T01:00:00Z');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const r = await runCli(['decide', '--store', f.storeUrl, '--run', id, '--after', '1h', '--then', 'continue'], {
    clock: f.clock,
  });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--after 1h --then continue: run \S+ waits for its window/);
});
