// An S3 store that accepts the connection and then never answers (a hung gateway, a black-holed
// route) fails each request once its `?timeout=` of silence ran out, as STORE_FAILED naming the
// store and what to check (the SDK's requestTimeout alone only logged a warning and waited on:
// these tests hung before); a run over it stops at the probe, before anything is sent to the API. The server here never answers, so the limit always fires, on any machine.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import { parseS3Url } from '../../src/store/s3-url.ts';
import { StoreError } from '../../src/store/store.ts';
import { runCli } from '../helpers/cli.ts';
import { rejection, startEmulator } from '../helpers/emulator.ts';

const KEYS = { AWS_ACCESS_KEY_ID: 'AKIATIMEOUTTEST', AWS_SECRET_ACCESS_KEY: 'timeout-test-secret-key' };

/** A TCP server that takes every connection and request and answers nothing, until the test ends. */
async function silentStore(t: TestContext) {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => (requests += 1));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

test('?timeout= is a duration: 60s when absent, refused when it is not one', () => {
  assert.equal(parseS3Url('s3://runs-bucket/x', {}).timeoutMs, 60_000);
  assert.equal(parseS3Url('s3://runs-bucket/x?timeout=30s', {}).timeoutMs, 30_000);
  for (const bad of ['soon', '0s'])
    assert.throws(
      () => openStore(`s3://runs-bucket/x?timeout=${bad}`, {}),
      (e: unknown) =>
        e instanceof StoreError &&
        e.code === 'STORE_REFUSED' &&
        /timeout is a duration/.test(e.message) &&
        /\?timeout=30s/.test(e.hint ?? ''),
    );
});

test('?grace= is a duration: 5s when absent, 0s allowed (cut at once), refused when it is not one', () => {
  assert.equal(parseS3Url('s3://runs-bucket/x', {}).graceMs, 5_000);
  assert.equal(parseS3Url('s3://runs-bucket/x?grace=20s', {}).graceMs, 20_000);
  assert.equal(parseS3Url('s3://runs-bucket/x?grace=0s', {}).graceMs, 0);
  assert.throws(
    () => openStore('s3://runs-bucket/x?grace=soon', {}),
    (e: unknown) =>
      e instanceof StoreError &&
      e.code === 'STORE_REFUSED' &&
      /grace is a duration/.test(e.message) &&
      /\?grace=5s/.test(e.hint ?? ''),
  );
});

test('a store that never answers: get, create and list fail with STORE_FAILED once the timeout ran out, naming the store, no credential', async (t) => {
  const silent = await silentStore(t);
  const url = `s3://runs-bucket/team?endpoint=${silent.endpoint}&timeout=1s`;
  const store = openStore(url, KEYS);
  for (const [error, what] of [
    [await rejection(store.get('runs/r1/journal/00000001')), /cannot read runs\/r1\/journal\/00000001/],
    [
      await rejection(store.create('runs/r1/journal/00000001', Buffer.from('x'))),
      /cannot write runs\/r1\/journal\/00000001, and cannot read it back/,
    ],
    [await rejection(store.list('runs/')), /cannot list runs\//],
  ] as const) {
    assert.ok(error instanceof StoreError, String(error));
    assert.equal(error.code, 'STORE_FAILED');
    assert.match(error.message, what);
    assert.ok(error.message.startsWith('s3://runs-bucket/team'), error.message);
    assert.match(error.hint ?? '', new RegExp(`check the endpoint ${silent.endpoint} is reachable`));
    assert.ok(!error.describe().includes(KEYS.AWS_SECRET_ACCESS_KEY));
  }
  assert.ok(silent.requests() >= 3, 'the requests reached the store and were never answered');
});

test('run --store over a store that never answers stops at the probe, before anything is sent, exit 1', async (t) => {
  const silent = await silentStore(t);
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-silent-store-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const r = await runCli(
    [
      'run',
      file,
      '--store',
      `s3://runs-bucket/team?endpoint=${silent.endpoint}&timeout=1s`,
      '--report-json',
      join(dir, 'r.json'),
    ],
    { env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...KEYS } },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /s3:\/\/runs-bucket\/team\S*: cannot (write|read|list)/);
  assert.match(r.stderr, /is reachable/);
  assert.ok(!(r.stdout + r.stderr).includes(KEYS.AWS_SECRET_ACCESS_KEY));
  assert.equal(emulator.requests.length, 0, 'nothing was sent to the API');
  assert.ok(!/requestTimeout|smithy/.test(r.stdout + r.stderr), 'no SDK noise in the log');
});
