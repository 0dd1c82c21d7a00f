// verify of the Classes writes says applied or not applied only from what its read proves. Each
// case runs the write through a real fault against the emulator (a read before the write that
// fails, a PATCH reset before the server read it, a gateway's 504 after the server applied it),
// on a simulated clock the emulator reads too, then lets time pass the step's longest: and reads
// it back with `verify` and `run --resume --in-doubt ...`: the emulator's state is the judge.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

async function setup(t: TestContext, steps: string, more: Record<string, string> = {}) {
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-entity-proof-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, `version: 1\nname: Proof\nsteps:\n${steps}`);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...more };
  const journal = join(dir, 'run.journal.jsonl');
  const cli = (...args: string[]) => runCli(args, { env, clock });
  const later = (ms: number) => clock.sleep(ms, new AbortController().signal);
  return { emulator, file, journal, cli, later };
}

const CREATE = `  - id: create
    uses: classes/create
    longest: 1m
    with: { class: 12, fields: { iname: mnew, ifullname: Mary New, iversion: 7 } }
`;
const ENTITIES = '/api/classes/v1/classes/12/entities';

test('verify cannot tell a create whose read before the write failed: no entity with the written fields is no proof without the keys of just before, and verify-and-retry creates no duplicate', async (t) => {
  const s = await setup(t, CREATE);
  // The read before the write answers 503 (every retry): no snapshot. The POST creates the entity
  // (at iversion 1: the server computes the version), and a gateway answers 504.
  s.emulator.faults.add({ method: 'GET', path: ENTITIES, status: 503, times: 4 });
  s.emulator.faults.add({ method: 'POST', path: ENTITIES, gateway: 504, times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /could not read the target before the write \(.*503.*\)/);
  const created = () => s.emulator.state.entities.filter((e) => e.iname === 'mnew').length;
  assert.equal(created(), 1, 'the server created it, at iversion 1');
  s.emulator.faults.clear();

  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Create an entity" .*: no entity with iname=mnew, ifullname=Mary New, iversion=7, and no snapshot of the class's entities just before the call: one created since with a field the server stores otherwise .*cannot be ruled out \(reading the target before the call failed: .*503.*\)$/m,
  );
  const posts = () => s.emulator.requests.filter((r) => r.method === 'POST' && r.path === ENTITIES).length;
  const sent = posts();
  const resumed = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /verify could not settle an in-doubt call: "Create an entity" .*: cannot-tell: /);
  assert.equal(posts(), sent, 'not sent again');
  assert.equal(created(), 1, 'no duplicate');
});
