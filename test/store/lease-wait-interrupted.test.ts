// SIGINT or SIGTERM while a run waits in a fleet lease's queue (another run holds it): the run
// sent nothing and stops as an interruption (its own code and words, the exit code the signal's),
// gives its place in the queue back, and the holder's lease is untouched. Before, the signal's
// reason came out of the wait as it was: "enginectl: internal error: received SIGTERM".
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { acquireLease } from '../../src/store/lease.ts';
import { openStore } from '../../src/store/open.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const PIPELINE = `version: 1
name: Waits for the fleet
lease: { name: fleet, wait: 1h, ttl: 10m }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

test('SIGTERM while waiting in a lease queue: an interruption (CANCELLED), nothing sent, no internal error', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-wait-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const storeDir = join(dir, 'store');
  mkdirSync(storeDir);
  const storeUrl = `file://${storeDir}`;
  const store = openStore(storeUrl, {});
  const other = await acquireLease(store, 'fleet', {
    holder: { runId: 'maintenance', actor: 'ops', host: 'ops-box' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: () => Promise.resolve() },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => other.release());
  const before = filesUnder(storeDir);
  const stop = new AbortController();
  const running = runCli(['run', file, '--store', storeUrl, '--report-json', join(dir, 'r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    signal: stop.signal,
  });
  // Queued: its ticket is in the store.
  await until(() => filesUnder(storeDir).some((f) => /queue\/[0-9]{8}$/.test(f) && !before.includes(f)));
  stop.abort(new Error('received SIGTERM'));
  const r = await running;
  assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
  assert.match(
    r.stderr,
    /waiting for the lease fleet was interrupted \(received SIGTERM\); nothing was sent/,
    r.stderr,
  );
  assert.match(r.stderr, /code: CANCELLED/, r.stderr);
  assert.equal(r.code, 130, 'an interruption: the process edge turns it into 130 or 143 by the signal');
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
  assert.equal(existsSync(join(dir, 'r.json')), false, 'nothing ran: no report, as for a lease held');
  await other.check();
});
