// A lease record or queue ticket that is not enginectl's (cut, altered, written by something else)
// is said as such (STORE_DAMAGED, exit 1: a retry reads the same record), never an internal error,
// and nothing is sent; a ticket that cannot be read holds no place in the queue.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = 'version: 1\nsteps:\n  - id: clear\n    uses: transaction-log/clear\n';
const HELD = JSON.stringify({
  v: 1,
  kind: 'acquire',
  holder: { runId: 'x', actor: 'a', host: 'h' },
  at: 1,
  expiresAt: 99_999_999_999_999,
  served: 0,
});

test('a damaged lease record: lease status and run --lease say which record and stop (exit 1), nothing sent, no internal error', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-damaged-'));
  const store = join(dir, 'store');
  mkdirSync(join(store, 'leases', 'fleet', 'queue'), { recursive: true });
  writeFileSync(join(store, 'leases', 'fleet', '00000001'), 'not json{');
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  for (const args of [
    ['lease', 'status', 'fleet', '--store', `file://${store}`],
    ['run', file, '--store', `file://${store}`, '--lease', 'fleet'],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 1, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /leases\/fleet\/00000001 is not a lease record of enginectl/, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/);
  }
  assert.equal(emulator.requests.length, 0, 'nothing sent');
  // A held lease and a ticket that is no ticket: the status reads, the ticket holds no place.
  writeFileSync(join(store, 'leases', 'fleet', '00000001'), HELD);
  writeFileSync(join(store, 'leases', 'fleet', 'queue', '00000001'), 'garbage');
  const status = await runCli(['lease', 'status', 'fleet', '--store', `file://${store}`], { env });
  assert.equal(status.code, 0, status.stdout + status.stderr);
  assert.match(status.stdout, /held by run x of a on h/);
});
