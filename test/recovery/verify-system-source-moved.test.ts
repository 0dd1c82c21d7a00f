// An update/system in doubt whose read of the Engines before the call failed (monitoring answered
// 503 through its retries: the run warns and sends the write) has no record of the source's version
// at the time of the call. verify must not take the source's version as it reads now for the one
// the update installed: a source database updated since (the next release installed there) makes
// the target's Engines, which the update did move, read "still on a version other than the
// source's", and `--in-doubt verify-and-retry` sends the update a second time.
// Before, src/steps/verify-engines.ts check(), with no snapshot, read
// `sourceVersion(all, ...)` (the source now), and `moved` was empty since nothing says what
// the target's Engines ran before.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { REFRESH_MS } from '../../src/emulator/engine-view.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Source moved
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: system
    uses: update/system
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
    longest: 1m
`;
const never = new AbortController().signal;

test("verify of an update/system whose read before the call failed, the source updated since: the target's Engines on the version the update installed are no proof it was not applied; verify-and-retry sends nothing", async (t) => {
  const server = simulatedClock(Math.floor(Date.now() / REFRESH_MS) * REFRESH_MS + 10_000);
  const { url, emulator } = await startEmulator(t, {
    now: server.now,
    faults: [
      // The read before the write fails through its retries (1 + 3): no snapshot.
      { method: 'GET', path: '/api/monitoring/v1/engines', status: 503, times: 4 },
      // The update is applied, and a gateway answers 504: in doubt.
      { method: 'POST', path: '/api/devops/v1/update/system', gateway: 504, times: 1 },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-source-moved-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  const run = await runCli(['run', file, '--journal', journal], { env, clock: server });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /could not read the target before the write/);
  const applied = () =>
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.applied).length;
  assert.equal(applied(), 1, 'the server applied the update behind the 504');
  const prod = () => emulator.state.engines.filter((e) => e.mainDatabase === 'PROD' && e.reporting);
  assert.ok(
    prod().every((e) => e.version === '26.11.0'),
    'the update moved the target to the source version of the call',
  );

  // Minutes on (past longest: and monitoring's lag), the source database gets the next release.
  await server.sleep(6 * 60_000, never);
  for (const e of emulator.state.engines) if (e.mainDatabase === 'MAIN') e.version = '26.12.0';

  const verified = await runCli(['verify', journal], { env, clock: server });
  assert.doesNotMatch(verified.stdout, /^not-applied /m, verified.stdout + verified.stderr);
  const resumed = await runCli(['run', file, '--resume', journal, '--in-doubt', 'verify-and-retry'], {
    env,
    clock: server,
  });
  assert.equal(applied(), 1, `the update applied once is not sent again: ${resumed.stdout}${resumed.stderr}`);
});
