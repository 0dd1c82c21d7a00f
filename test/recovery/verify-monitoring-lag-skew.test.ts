// An update/system in doubt is "not applied" only once monitoring's 2-minute lag has passed since
// the latest the call can have left, counted as every "since the call" is when verify runs on
// another machine than the run: through the server's clock (journal/since-call.ts), not the two
// machines' clocks. A verifying machine minutes ahead of the server's must not read the lag as
// passed, nor `--in-doubt verify-and-retry` send the update a second time.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import { REFRESH_MS } from '../../src/emulator/engine-view.ts';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Lag
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: system
    uses: update/system
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
    longest: 1m
`;
const MINUTE = 60_000;
const never = new AbortController().signal;

/** A machine's clock `by` ms off the server's: it moves as the server's does. */
const off = (server: Clock, by: number): Clock => ({ now: () => server.now() + by, sleep: server.sleep });

/** The journal as a kill right after the update's send record leaves it. */
function killedAfterSend(journal: string): string {
  const all = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; key?: string; crc?: string });
  const at = all.findIndex((r) => r.t === 'send' && r.key === 'id:system');
  assert.ok(at >= 0, 'a send record of the update');
  const to = `${journal}.killed.jsonl`;
  writeFileSync(
    to,
    all
      .slice(0, at + 1)
      .map(({ crc: _crc, ...r }) => encodeLine(r))
      .join(''),
  );
  return to;
}

test("verify of an update/system on a machine 10 minutes ahead of the server's, 2 minutes after the call (longest: 1m): monitoring's lag has not passed since the call could have left, cannot tell; verify-and-retry sends nothing; a minute later, not applied", async (t) => {
  // The server's clock 10 s past a refresh of monitoring: 2 minutes on, the Engines' data is 10 s old.
  const server = simulatedClock(Math.floor(Date.now() / REFRESH_MS) * REFRESH_MS + 10_000);
  const { url, emulator } = await startEmulator(t, { now: server.now });
  const before = structuredClone(emulator.state);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-lag-skew-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  // The run, on a clock in step with the server's.
  const run = await runCli(['run', file, '--journal', journal], { env, clock: server });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const sent = () => emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system')).length;
  assert.equal(sent(), 1);
  // Killed once the update left; the server never ran it (its Engines as before the call).
  const killed = killedAfterSend(journal);
  emulator.state = structuredClone(before);

  // 2 minutes on the server's clock: 1m30s past the latest the call can have left (30 s after its record).
  await server.sleep(2 * MINUTE, never);
  const ahead = off(server, 10 * MINUTE);
  const early = await runCli(['verify', killed], { env, clock: ahead });
  assert.equal(early.code, 1, early.stdout + early.stderr);
  assert.match(early.stdout, /^cannot-tell +"System update prod" .*monitoring lags up to 2 minutes/m, early.stdout);
  const resumed = await runCli(['run', file, '--resume', killed, '--in-doubt', 'verify-and-retry'], {
    env,
    clock: ahead,
  });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /cannot-tell: .*monitoring lags up to 2 minutes/);
  assert.equal(sent(), 1, 'not sent again while monitoring may not show it yet');

  // A minute more: past the lag on the server's clock, the Engines' data 1m10s old, sent after longest: had passed.
  await server.sleep(MINUTE, never);
  const past = await runCli(['verify', killed], { env, clock: ahead });
  assert.equal(past.code, 0, past.stdout + past.stderr);
  assert.match(past.stdout, /^not-applied +"System update prod" .*past the step's longest: 1m/m, past.stdout);
});
