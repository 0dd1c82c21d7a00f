// A saved plan records when it was made (createdAt); run --plan refuses one older than
// --plan-max-age (default 168h: 7 days) as stale (PLAN_STALE, exit 2), before any request, as it
// refuses a plan whose state moved; a plan from later than the run's clock (a clock set wrong) is
// refused too (BAD_PLAN). The age is read on the run's clock: here a simulated one, days after the
// plan was made. The CLI's source in this process (runCli).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Release with a saved plan
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: monitoring/alerts
    with: { fail-on: critical }
  - uses: update/system
    with: { target: prod }
`;

const HOUR = 60 * 60_000;

async function setup(t: Parameters<typeof startEmulator>[0]) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-plan-age-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  // Its GET requests made: what follows counts the run's only.
  emulator.requests.length = 0;
  /** run --plan on a clock `hours` after now. */
  const runAfter = (hours: number, ...args: string[]) =>
    runCli(['run', file, '--plan', plan, ...args], { env, clock: simulatedClock(Date.now() + hours * HOUR) });
  return { emulator, runAfter };
}

test('run --plan refuses a plan older than 7 days (PLAN_STALE, exit 2) before any request; --plan-max-age sets the age', async (t) => {
  const s = await setup(t);
  const old = await s.runAfter(8 * 24);
  assert.equal(old.code, 2, old.stdout + old.stderr);
  assert.match(
    old.stderr,
    /^enginectl: --plan \S+plan\.json: the saved plan of \S+ is stale:\n {2}- it was made 19[12]h\S* ago, over --plan-max-age 168h \(the default\)\n {2}hint: /,
  );
  assert.match(old.stderr, /code: PLAN_STALE\n$/);
  assert.equal(s.emulator.requests.length, 0, 'refused before any request');
  // A shorter limit refuses a plan of a day; a longer one runs one of 8 days.
  const day = await s.runAfter(25, '--plan-max-age', '24h');
  assert.equal(day.code, 2, day.stderr);
  assert.match(day.stderr, /it was made 2[45]h\S* ago, over --plan-max-age 24h\n/);
  const kept = await s.runAfter(8 * 24, '--plan-max-age', '240h');
  assert.equal(kept.code, 0, kept.stdout + kept.stderr);
  assert.equal(s.emulator.requests.filter((r) => r.method === 'POST').length, 1, 'the update was sent, once');
});

test('a plan made later than the run clock says (beyond a few minutes: a clock set wrong) is refused (BAD_PLAN, exit 2); --plan-max-age needs --plan and a duration', async (t) => {
  const s = await setup(t);
  const early = await s.runAfter(-2);
  assert.equal(early.code, 2, early.stderr);
  assert.match(
    early.stderr,
    /--plan \S+plan\.json: it was made at \S+, 2h\S* later than this machine's clock says it is now/,
  );
  assert.match(early.stderr, /code: BAD_PLAN\n$/);
  assert.equal(s.emulator.requests.length, 0);
  const alone = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--plan-max-age', '24h']);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--plan-max-age goes with --plan F/);
  const bad = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--plan', 'p.json', '--plan-max-age', 'a week']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--plan-max-age a week: not a duration/);
  const zero = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--plan', 'p.json', '--plan-max-age', '0s']);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--plan-max-age 0s: must be more than 0/);
});
