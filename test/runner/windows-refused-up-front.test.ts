// A write that no window can ever fit (its expected duration plus the margin longer than every
// opening of its windows, or windows a freeze always holds) is known from the pipeline and the
// clock alone: the run is refused with WINDOW_CLOSED before its journal is opened and before any
// request, the reads before it included. Before, the journal was opened, the reads were sent, and
// only then was the write refused. What may still let the run go on (continue-on-error on the
// write) is not refused up front. The action likewise.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { actionDef } from '../../src/action/definitions.ts';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import { ExitCode } from '../../src/errors.ts';

const pipeline = (schedule: string, write = '    longest: 2h\n') => `version: 1
name: Nightly
targets:
  prod: { server: default, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
${schedule}
steps:
  - id: engines
    uses: monitoring/engines
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
${write}`;

const SHORT = `windows:
  night: { cron: '0 2 * * *', duration: 1h, zone: UTC }`;
const FROZEN = `windows:
  night: { cron: '0 2 * * *', duration: 4h, zone: UTC }
freezes:
  always: { zone: UTC, dates: [{ from: 2000-01-01, to: 2100-01-01 }] }`;

// The run's clock is the test's: what the refusal says depends on the time of day against the
// 02:00 UTC window (before, the wall clock's: the test failed when run between 02:00 and 03:00).
const NOON = Date.parse('2026-12-07T12:00:00Z');

async function attempt(
  t: TestContext,
  yaml: string,
  extra: (dir: string) => string[] = () => [],
  clock: Clock = simulatedClock(NOON),
) {
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-unfittable-'));
  const file = join(dir, 'nightly.yml');
  writeFileSync(file, yaml);
  const journal = join(dir, 'run.journal.jsonl');
  const r = await runCli(['run', file, '--journal', journal, ...extra(dir)], {
    clock,
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  return { ...r, journal, requests: emulator.requests.length, dir };
}

for (const [what, schedule, why] of [
  [
    'longer than every opening of its window',
    SHORT,
    /\[2\/2\] vfs needs 2h12m \(2h from its longest: plus the margin\), and now no window of its site is open;/,
  ],
  [
    'whose windows a freeze always holds',
    FROZEN,
    /\[2\/2\] vfs needs 2h12m \(2h from its longest: plus the margin\), and now (no window of its site is open|freeze "always" holds)/,
  ],
] as const)
  test(`a write ${what}: WINDOW_CLOSED before the journal is opened and before any request`, async (t) => {
    const r = await attempt(t, pipeline(schedule));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(existsSync(r.journal), false, 'no journal opened');
    assert.equal(r.requests, 0, 'no request sent, not even the read before it');
    assert.match(r.stderr, /code: WINDOW_CLOSED/);
    assert.match(r.stderr, why);
    assert.match(r.stderr, /no window within 400 days fits this write/);
    // The pipeline allows no override: the hint offers none (one would be refused, OVERRIDE_REFUSED).
    assert.doesNotMatch(r.stderr, /--override-freeze/);
    assert.match(r.stderr, /no override is allowed: the pipeline's override-freeze: lists no one/);
  });

test('a write longer than the window open now: the refusal says when that window ends and by how much it is too short', async (t) => {
  const r = await attempt(t, pipeline(SHORT), undefined, simulatedClock(Date.parse('2026-12-07T02:30:00Z')));
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.requests, 0);
  assert.match(
    r.stderr,
    /\[2\/2\] vfs needs 2h12m \(2h from its longest: plus the margin\), and the window open now ends at 2026-12-07T03:00:00\.000Z, 1h42m too soon;/,
  );
});

test('with a run store: refused before the store holds any run', async (t) => {
  const r = await attempt(t, pipeline(SHORT), (dir) => {
    mkdirSync(join(dir, 'store'));
    return ['--store', `file://${join(dir, 'store')}`];
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.requests, 0);
  assert.match(r.stderr, /code: WINDOW_CLOSED/);
  const runs = await runCli(['runs', '--store', `file://${join(r.dir, 'store')}`]);
  assert.match(runs.stdout, /^no run in /, 'the store holds no run');
});

test('continue-on-error on the write: the run goes on as before (the read sent, the journal kept), the write refused at its turn', async (t) => {
  const r = await attempt(t, pipeline(SHORT, '    longest: 2h\n    continue-on-error: true\n'));
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(r.journal));
  assert.ok(r.requests > 0);
  assert.match(r.stdout, /WINDOW_CLOSED/);
});

test('the action: refused before any request, its summary naming WINDOW_CLOSED', async (t) => {
  const clock = simulatedClock(NOON);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const run = await runActionInProcess(actionDef('enginectl'), {
    clock,
    files: { 'nightly.yml': pipeline(SHORT) },
    inputs: { pipeline: 'nightly.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, ExitCode.failed);
  assert.equal(emulator.requests.length, 0, 'no request sent, not even the read before it');
  assert.match(run.summary, /not run \(WINDOW_CLOSED\)/);
  assert.match(run.failed.join('\n'), /no window within 400 days fits this write/);
});
