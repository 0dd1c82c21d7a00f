// The probe at a store's first use: a store that accepts a create-only write of a key that exists
// is refused (STORE_REFUSED, exit 2) naming the store; one that refuses it passes. Against an S3
// that ignores If-None-Match (written here: the faulty server under test) and a real directory.
// (The probe passing on a real S3 is in s3.test.ts, against Ceph's RGW.)
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';
import { probeStore } from '../../src/store/probe.ts';
import { S3Store } from '../../src/store/s3.ts';
import { StoreError } from '../../src/store/store.ts';
import { rejection } from '../helpers/emulator.ts';

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * THE FAULTY SERVER UNDER TEST: an S3 that ignores conditional writes, as npm's S3 fakes and
 * radosgw's DBStore do. It accepts every PUT, If-None-Match: * or not, and overwrites the key; GET
 * answers the last body. `puts` records each PUT's If-None-Match header.
 */
async function s3IgnoringConditions(t: { after: (fn: () => Promise<void>) => void }) {
  const objects = new Map<string, Buffer>();
  const puts: { path: string; ifNoneMatch: string | undefined }[] = [];
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'PUT') {
      puts.push({ path, ifNoneMatch: req.headers['if-none-match'] as string | undefined });
      objects.set(path, body);
      res.writeHead(200, { etag: '"0123456789abcdef0123456789abcdef"' });
      return res.end();
    }
    if (req.method === 'GET' && objects.has(path)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(objects.get(path));
    }
    res.writeHead(req.method === 'GET' ? 404 : 501, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${req.method === 'GET' ? 'NoSuchKey' : 'NotImplemented'}</Code><Message>-</Message></Error>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, puts };
}

test('the probe refuses an S3 that ignores If-None-Match: STORE_REFUSED, exit 2, naming the store, after the store sent If-None-Match: *', async (t) => {
  const server = await s3IgnoringConditions(t);
  const secret = 'probe-secret-key-never-printed';
  const store = new S3Store(`s3://runs-bucket/team-a?endpoint=${encodeURIComponent(server.endpoint)}`, {
    AWS_ACCESS_KEY_ID: 'AKIAPROBETEST',
    AWS_SECRET_ACCESS_KEY: secret,
  });
  t.after(() => store.close());
  const error = await rejection(probeStore(store, () => 1_700_000_000_000));
  assert.ok(error instanceof StoreError);
  assert.equal(error.code, 'STORE_REFUSED');
  assert.equal(error.exitCode, 2);
  assert.match(
    error.message,
    /^s3:\/\/runs-bucket\/team-a\?endpoint=.* accepted a create-only write of a key that exists/,
  );
  assert.ok(!error.describe().includes(secret));
  // Both writes went to the same key, each with If-None-Match: *: the server ignored it.
  assert.equal(server.puts.length, 2);
  assert.equal(server.puts[0]!.path, server.puts[1]!.path);
  assert.match(server.puts[0]!.path, /^\/runs-bucket\/team-a\/probes\/1700000000000-/);
  assert.deepEqual(
    server.puts.map((p) => p.ifNoneMatch),
    ['*', '*'],
  );
});

test('a directory whose file system lets a link replace an existing key is refused by the probe (STORE_REFUSED, nothing else written)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-probe-'));
  // link(2) as a file system without an atomic exclusive create would do it: the key replaced.
  const replacing = {
    ...fs,
    link: (from: fs.PathLike, to: fs.PathLike, done: fs.NoParamCallback) => fs.copyFile(from, to, done),
  } as typeof fs;
  const store = new DirectoryStore(pathToFileURL(dir).href, replacing);
  const error = await rejection(probeStore(store, () => 1_700_000_000_000));
  assert.ok(error instanceof StoreError, String(error));
  assert.equal(error.code, 'STORE_REFUSED');
  assert.match(error.message, /accepted a create-only write of a key that exists/);
  assert.deepEqual(
    (await store.list('')).map((k) => k.replace(/[0-9a-f-]{36}$/, 'ID')),
    ['probes/1700000000000-ID'],
  );
});

test('the probe passes on a real directory: link(2) refuses an existing key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-probe-'));
  const store = new DirectoryStore(pathToFileURL(dir).href);
  await probeStore(store, () => 1_700_000_000_000);
  const keys = await store.list('probes/');
  assert.equal(keys.length, 1);
  assert.deepEqual(JSON.parse(String(await store.get(keys[0]!))), { probe: true, at: 1_700_000_000_000 });
});
