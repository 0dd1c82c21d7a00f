// "Since the call" when verify runs on another machine than the run (verify --store, a resume in
// another CI job): the run's journal stamps the call on the run's clock, verify reads its own. A
// clock ahead of the run's (or a run's clock behind) must not make a write that may still be
// running at the server read "not applied", nor `--in-doubt verify-and-retry` send it a second
// time. The emulator reads the server's clock (its answers' Date); each machine has its own.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Skew
steps:
  - uses: classes/update
    with: { class: 12, id: 2001, fields: { iname: x } }
    longest: 5m
`;
const PATCH = '/api/classes/v1/classes/12/entities/2001';
const MINUTE = 60_000;
const never = new AbortController().signal;

/** A machine's clock `by` ms off the server's: it moves as the server's does. */
const off = (server: Clock, by: number): Clock => ({ now: () => server.now() + by, sleep: server.sleep });

/**
 * A run on a clock `runOffset` ms off the server's whose PATCH is in doubt (the connection reset:
 * the server may still apply it, as far as anyone can tell). `set`: how far the server's clock was
 * set forward since (0 unless the test moves it).
 */
async function inDoubt(t: TestContext, runOffset: number, set: () => number = () => 0) {
  const server = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: () => server.now() + set() });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-skew-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'PATCH', path: PATCH, reset: 'before', times: 1 });
  const run = await runCli(['run', file, '--journal', journal], { env, clock: off(server, runOffset) });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === PATCH).length;
  assert.equal(patches(), 1);
  return { server, file, env, journal, patches };
}

test("verify on a machine whose clock is 10 minutes ahead of the run's, 1 minute after the call with longest: 5m, cannot tell; verify-and-retry sends nothing; past longest: on the server's clock, not applied", async (t) => {
  const s = await inDoubt(t, 0);
  await s.server.sleep(MINUTE, never);
  const ahead = off(s.server, 10 * MINUTE);
  const early = await runCli(['verify', s.journal], { env: s.env, clock: ahead });
  assert.equal(early.code, 1, early.stdout + early.stderr);
  assert.match(early.stdout, /^cannot-tell +".*longest: 5m has not passed/m, early.stdout);
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry'], {
    env: s.env,
    clock: ahead,
  });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /cannot-tell/);
  assert.equal(s.patches(), 1, 'not sent again while the first may still run at the server');

  // 6 minutes on the server's clock: past longest: (and the 30 s a write may take to leave).
  await s.server.sleep(5 * MINUTE, never);
  const past = await runCli(['verify', s.journal], { env: s.env, clock: ahead });
  assert.equal(past.code, 0, past.stdout + past.stderr);
  assert.match(past.stdout, /^not-applied +".*past the step's longest: 5m/m);
  const retried = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry'], {
    env: s.env,
    clock: ahead,
  });
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(s.patches(), 2, 'sent again once');
});

test("verify 1 minute after a call a run made on a clock 10 minutes behind the server's, with longest: 5m, cannot tell", async (t) => {
  const s = await inDoubt(t, -10 * MINUTE);
  await s.server.sleep(MINUTE, never);
  const verified = await runCli(['verify', s.journal], { env: s.env, clock: s.server });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +".*longest: 5m has not passed/m, verified.stdout);
});

/** The journal as an enginectl that kept no clock of the server with a write wrote it. */
function withoutServerClock(journal: string): string {
  const records = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { crc: _crc, clock: _clock, ...r } = JSON.parse(l) as Record<string, unknown>;
      return r;
    });
  const to = `${journal}.old.jsonl`;
  writeFileSync(to, records.map((r) => encodeLine(r)).join(''));
  return to;
}

test("a journal that kept no server clock: verified on a machine whose clock is far off the server's, cannot tell, saying so; on one in step with it, as before", async (t) => {
  const s = await inDoubt(t, 0);
  const old = withoutServerClock(s.journal);
  await s.server.sleep(MINUTE, never);
  const ahead = await runCli(['verify', old], { env: s.env, clock: off(s.server, 10 * MINUTE) });
  assert.equal(ahead.code, 1, ahead.stdout + ahead.stderr);
  assert.match(ahead.stdout, /^cannot-tell +".*this machine's clock is \S+ ahead of the server's/m, ahead.stdout);

  await s.server.sleep(5 * MINUTE, never);
  const inStep = await runCli(['verify', old], { env: s.env, clock: s.server });
  assert.equal(inStep.code, 0, inStep.stdout + inStep.stderr);
  assert.match(inStep.stdout, /^not-applied +".*past the step's longest: 5m/m);
});

test('a server whose clock was set 10 minutes forward since the run makes the time since the call no longer: verified 1 minute after it, with longest: 5m, cannot tell', async (t) => {
  let set = 0;
  const s = await inDoubt(t, 0, () => set);
  set = 10 * MINUTE;
  await s.server.sleep(MINUTE, never);
  const verified = await runCli(['verify', s.journal], { env: s.env, clock: s.server });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +".*; counted on the two machines' clocks, which say less than the server's: this machine's clock is 10m behind it; the step's longest: 5m has not passed/m,
    verified.stdout,
  );
});
