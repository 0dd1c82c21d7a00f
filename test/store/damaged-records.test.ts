// A record of the store that no enginectl wrote (altered, planted, cut) is STORE_DAMAGED naming its
// key, never an internal error: a lease record whose times are past the range of a date, a journal
// segment larger than any record (read no further than the bound, not into a string too long).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PIPELINE =
  'version: 1\nname: damaged\nlease: { name: prod, ttl: 30s }\nsteps:\n  - uses: transaction-log/clear\n';

function expectDamaged(r: { code: number | null; stdout: string; stderr: string }, key: RegExp, what: string) {
  const said = `${what}: exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 1, said);
  assert.match(r.stderr, /code: STORE_DAMAGED/, said);
  assert.match(r.stderr, key, said);
  assert.doesNotMatch(r.stderr, /internal error|Invalid time value|\n\s+at /, said);
}

test('a lease record whose expiry (or time) is past the range of a date is STORE_DAMAGED naming its key: lease status, run, lease release', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-damaged-lease-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  for (const [field, value] of [
    ['expiresAt', '1e300'],
    ['at', '-1e300'],
  ]) {
    const store = join(dir, `store-${field}`);
    mkdirSync(join(store, 'leases', 'prod'), { recursive: true });
    const record = {
      v: 1,
      kind: 'acquire',
      holder: { runId: 'x', actor: 'a', host: 'h' },
      at: 1,
      expiresAt: 1,
      served: 0,
    };
    writeFileSync(
      join(store, 'leases', 'prod', '00000001'),
      JSON.stringify(record).replace(`"${field}":1`, `"${field}":${value}`),
    );
    const url = `file://${store}`;
    for (const args of [
      ['lease', 'status', 'prod', '--store', url],
      ['lease', 'release', 'prod', '--reason', 'gone', '--store', url],
      ['run', file, '--emulator', '--store', url],
    ])
      expectDamaged(await runCli(args), /leases\/prod\/00000001/, `${args.join(' ')} (${field} ${value})`);
  }
});

test('a journal segment of 600 MB is STORE_DAMAGED naming its key (read no further than the bound): report, verify, run --resume', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-damaged-segment-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const url = `file://${store}`;
  const first = await runCli(['run', file, '--emulator', '--store', url]);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const [run] = readdirSync(join(store, 'runs'));
  const segments = readdirSync(join(store, 'runs', run!, 'journal'));
  const big = String(segments.length + 1).padStart(8, '0');
  // Sparse: 600 MB on no disk.
  writeFileSync(join(store, 'runs', run!, 'journal', big), '');
  truncateSync(join(store, 'runs', run!, 'journal', big), 600 * 1024 * 1024);
  for (const args of [
    ['report', '--store', url, '--run', run!],
    ['verify', '--store', url, '--run', run!],
    ['run', file, '--emulator', '--store', url, '--resume', run!],
  ])
    expectDamaged(await runCli(args), new RegExp(`runs/${run}/journal/${big}`), args.join(' '));
});
