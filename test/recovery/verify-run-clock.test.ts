// `enginectl verify` reads "since the call" on the run's clock (the steady real one; under tests
// the simulated one the emulator reads too), as its own check of the run's lease, `run --resume
// --in-doubt verify` and `decide` do: a write the server never applied is proved not applied once
// the step's `longest:` has passed on that clock, and not before.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Clock
steps:
  - uses: classes/update
    with: { class: 12, id: 2001, fields: { iname: x } }
    longest: 10m
`;
const PATCH = '/api/classes/v1/classes/12/entities/2001';

test("verify counts the time since the call on the run's clock: within the step's longest: cannot tell, past it not applied, as run --in-doubt verify says", async (t) => {
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-clock-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  // The connection reset before the server read the PATCH: not applied, in doubt.
  emulator.faults.add({ method: 'PATCH', path: PATCH, reset: 'before', times: 1 });
  const run = await runCli(['run', file, '--journal', journal], { env, clock });
  assert.equal(run.code, 1, run.stdout + run.stderr);

  await clock.sleep(5 * 60_000, new AbortController().signal);
  const within = await runCli(['verify', journal], { env, clock });
  assert.match(
    within.stdout,
    /^cannot-tell +".*longest: 10m has not passed since the latest the call can have left/m,
    within.stdout + within.stderr,
  );

  await clock.sleep(6 * 60_000, new AbortController().signal);
  const past = await runCli(['verify', journal], { env, clock });
  assert.equal(past.code, 0, past.stdout + past.stderr);
  assert.match(past.stdout, /^not-applied +".*past the step's longest: 10m/m);
  const resumed = await runCli(['run', file, '--resume', journal, '--in-doubt', 'verify-and-retry'], { env, clock });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /^verify: ".*": not-applied: /m);
  assert.equal(emulator.requests.filter((r) => r.applied && r.path === PATCH).length, 1, 'sent again once');
});
