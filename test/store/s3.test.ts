// The S3 store against a real S3 that honours conditional writes: Ceph's RADOS Gateway, one cluster
// for this file (test/helpers/ceph.ts). Get, create-only and list; races of 2-8 creators; a
// create-only PUT retried after a 503 that followed its write (settled by reading the key back);
// throttling (503 SlowDown, from a proxy written here in front of RGW) and RGW stopped: each fails
// with STORE_FAILED naming the store, never a credential.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test, type TestContext } from 'node:test';
import { probeStore } from '../../src/store/probe.ts';
import { S3Store, type S3StoreOptions } from '../../src/store/s3.ts';
import { StoreError } from '../../src/store/store.ts';
import { startCeph } from '../helpers/ceph.ts';
import { rejection } from '../helpers/emulator.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const storeAt = (t: TestContext, prefix: string, options: S3StoreOptions = {}, endpoint = ceph.endpoint) => {
  const store = new S3Store(ceph.storeUrl(prefix, endpoint), ceph.env, options);
  t.after(() => store.close());
  return store;
};

/** A StoreError STORE_FAILED whose message names the store and whose text holds no credential. */
function assertFailed(error: Error & Record<string, unknown>, store: S3Store, what: RegExp) {
  assert.ok(error instanceof StoreError, `a StoreError: ${error.message}`);
  assert.equal(error.code, 'STORE_FAILED');
  assert.equal(error.exitCode, 1);
  assert.ok(error.message.startsWith(`${store.url}: `), error.message);
  assert.match(error.message, what);
  assert.ok(error.hint, 'says what to check');
  for (const secret of [ceph.secretAccessKey, ceph.accessKeyId])
    assert.ok(!error.describe().includes(secret), `no credential in: ${error.describe()}`);
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const slowDown = (res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'application/xml' });
  res.end(
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>tx-proxy</RequestId></Error>',
  );
};

type Fate = 'forward' | 'slowdown' | 'forward-then-slowdown';

/**
 * A proxy in front of RGW, as S3's own front end throttling: each request's fate is
 * `fate(method, n)` (n counts the requests of that method from 1): passed on, answered 503
 * SlowDown instead, or answered 503 SlowDown after RGW applied it. Headers pass untouched (the
 * Host header is signed).
 */
async function slowDownProxy(t: TestContext, fate: (method: string, n: number) => Fate) {
  const target = new URL(ceph.endpoint);
  const counts = new Map<string, number>();
  const seen: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const method = req.method ?? 'GET';
    const n = (counts.get(method) ?? 0) + 1;
    counts.set(method, n);
    const f = fate(method, n);
    seen.push(`${method} ${f}`);
    if (f === 'slowdown') return slowDown(res);
    const forwarded = request(
      { host: target.hostname, port: target.port, method, path: req.url, headers: req.headers },
      async (answer) => {
        const text = await bodyOf(answer);
        if (f === 'forward-then-slowdown') return slowDown(res);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(text);
      },
    );
    forwarded.on('error', () => (res.writeHead(502), res.end()));
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

test('S3 on RGW: get of a missing key is undefined; create writes a key once, a second create answers false and the first body stays', async (t) => {
  const store = storeAt(t, 'semantics');
  assert.equal(await store.get('runs/r1/lease/0001'), undefined);
  assert.equal(await store.create('runs/r1/lease/0001', Buffer.from('first')), true);
  assert.equal(await store.create('runs/r1/lease/0001', Buffer.from('second')), false);
  assert.equal(String(await store.get('runs/r1/lease/0001')), 'first');
  // Another store under another prefix of the same bucket sees nothing of it.
  assert.equal(await storeAt(t, 'elsewhere').get('runs/r1/lease/0001'), undefined);
  assert.deepEqual(await storeAt(t, 'elsewhere').list(''), []);
});

test('S3 on RGW: a prepared body is created at the first key tried that does not exist; the existing body stays; a key refused sends nothing', async (t) => {
  const store = storeAt(t, 'prepared');
  assert.equal(await store.create('log/00000001', Buffer.from('another worker')), true);
  const prepared = await store.prepare('log/00000001', Buffer.from('mine'));
  assert.equal(await prepared.create('log/00000001'), false);
  assert.equal(await prepared.create('log/00000002'), true);
  await prepared.release();
  assert.equal(String(await store.get('log/00000001')), 'another worker');
  assert.equal(String(await store.get('log/00000002')), 'mine');
  assert.deepEqual(await store.list(''), ['log/00000001', 'log/00000002']);
  await assert.rejects(store.prepare('log/../x', Buffer.from('mine')), /not a key of the run store/);
  assert.deepEqual(await store.list(''), ['log/00000001', 'log/00000002'], 'nothing more written');
});

test('S3 on RGW: list gives every key under a prefix, in order, across pages (1,001 keys: two pages of 1,000; and pages of 100)', async (t) => {
  const store = storeAt(t, 'listing');
  const keys = Array.from({ length: 1001 }, (_, i) => `runs/r2/journal/${String(i).padStart(6, '0')}`);
  for (let i = 0; i < keys.length; i += 50)
    await Promise.all(keys.slice(i, i + 50).map((k) => store.create(k, Buffer.from(k))));
  await store.create('runs/r20/journal/000000', Buffer.from('another run'));
  await store.create('runs/r2-other', Buffer.from('not under the prefix'));
  assert.deepEqual(await store.list('runs/r2/'), keys);
  assert.deepEqual(await storeAt(t, 'listing', { pageSize: 100 }).list('runs/r2/'), keys);
  assert.deepEqual(
    await storeAt(t, 'listing', { pageSize: 7 }).list('runs/r2'),
    [...keys, 'runs/r2-other', 'runs/r20/journal/000000'].sort(),
  );
  assert.deepEqual(await store.list('runs/r3/'), []);
});

test('S3 on RGW: a key with .., an empty segment or a backslash is refused, and nothing is written', async (t) => {
  const store = storeAt(t, 'keys');
  for (const key of ['../escape', 'runs/../../x', 'runs//x', 'runs\\x', '/abs', '']) {
    const error = await rejection(store.create(key, Buffer.from('x')));
    assert.ok(error instanceof StoreError && error.code === 'STORE_FAILED', key);
    assert.match(error.message, /not a key of the run store/);
    await rejection(store.get(key));
  }
  assert.deepEqual(await storeAt(t, '').list('keys'), []);
});

test('the probe passes on RGW, which refuses a create-only write of an existing key', async (t) => {
  const store = storeAt(t, 'probed');
  await probeStore(store, () => 1_700_000_000_000);
  assert.equal((await store.list('probes/')).length, 1);
});

test('S3 on RGW: 1,000 rounds of 2-8 creators at once on the same key: exactly one winner per round, and the key holds the winner body', async (t) => {
  // Eight stores, each its own client and connections (eight runners); no SDK retry.
  const stores = Array.from({ length: 8 }, () => storeAt(t, 'races', { maxAttempts: 1 }));
  const winners = new Map<number, number>();
  const race = async (round: number) => {
    const n = 2 + (round % 7);
    const key = `leases/fleet/${String(round).padStart(4, '0')}`;
    const bodies = stores
      .slice(0, n)
      .map((_, i) => Buffer.from(JSON.stringify({ round, racer: i, pad: 'x'.repeat(4096) })));
    const created = await Promise.all(stores.slice(0, n).map((s, i) => s.create(key, bodies[i]!)));
    const won = created.flatMap((c, i) => (c ? [i] : []));
    assert.equal(won.length, 1, `round ${round} (${n} creators): winners ${JSON.stringify(won)}`);
    assert.deepEqual(await stores[0]!.get(key), bodies[won[0]!], `round ${round}: the key holds the winner body`);
    winners.set(n, (winners.get(n) ?? 0) + 1);
  };
  // Ten rounds at a time, each on its own key (a round is about 90 ms of RGW's latency).
  for (let round = 0; round < 1000; round += 10)
    await Promise.all(Array.from({ length: 10 }, (_, i) => race(round + i)));
  assert.equal(
    [...winners.values()].reduce((a, b) => a + b),
    1000,
  );
  t.diagnostic(`rounds by number of creators: ${JSON.stringify(Object.fromEntries(winners))}`);
});

test('a create-only PUT answered 503 SlowDown after RGW wrote it is retried by the SDK, answered 412, and settled by reading the key: created', async (t) => {
  const proxy = await slowDownProxy(t, (method, n) =>
    method === 'PUT' && n === 1 ? 'forward-then-slowdown' : 'forward',
  );
  const store = storeAt(t, 'settle-ours', {}, proxy.endpoint);
  assert.equal(await store.create('leases/fleet/0001', Buffer.from('ours')), true);
  assert.deepEqual(proxy.seen, ['PUT forward-then-slowdown', 'PUT forward', 'GET forward']);
  assert.equal(String(await store.get('leases/fleet/0001')), 'ours');
});

test("a prepared body's PUT at the second key tried, answered 503 SlowDown after RGW wrote it: retried, answered 412, settled by reading that key: created there, the first key left as it was", async (t) => {
  await storeAt(t, 'settle-second').create('waves/1/log/00000001', Buffer.from('another worker'));
  const proxy = await slowDownProxy(t, (method, n) =>
    method === 'PUT' && n === 2 ? 'forward-then-slowdown' : 'forward',
  );
  const store = storeAt(t, 'settle-second', {}, proxy.endpoint);
  const prepared = await store.prepare('waves/1/log/00000001', Buffer.from('mine'));
  assert.equal(await prepared.create('waves/1/log/00000001'), false, 'the first key is taken: refused once, not read');
  assert.equal(await prepared.create('waves/1/log/00000002'), true, 'the second key: ours, read back');
  await prepared.release();
  assert.deepEqual(proxy.seen, ['PUT forward', 'PUT forward-then-slowdown', 'PUT forward', 'GET forward']);
  assert.equal(String(await store.get('waves/1/log/00000001')), 'another worker');
  assert.equal(String(await store.get('waves/1/log/00000002')), 'mine');
});

test('a create-only PUT throttled before reaching RGW, retried and answered 412, with another body in the key: not created', async (t) => {
  await storeAt(t, 'settle-theirs').create('leases/fleet/0001', Buffer.from('theirs'));
  const proxy = await slowDownProxy(t, (method, n) => (method === 'PUT' && n === 1 ? 'slowdown' : 'forward'));
  const store = storeAt(t, 'settle-theirs', {}, proxy.endpoint);
  assert.equal(await store.create('leases/fleet/0001', Buffer.from('ours')), false);
  assert.deepEqual(proxy.seen, ['PUT slowdown', 'PUT forward', 'GET forward']);
  assert.equal(String(await store.get('leases/fleet/0001')), 'theirs');
});

test("an empty body (a journal's fence) throttled, retried and answered 412 with an empty body there: whose it is cannot be told, so never 'created'", async (t) => {
  // Another runner's fence took the segment first; this runner's PUT was throttled, then refused.
  await storeAt(t, 'settle-fence').create('runs/r/journal/00000002', Buffer.alloc(0));
  const proxy = await slowDownProxy(t, (method, n) => (method === 'PUT' && n === 1 ? 'slowdown' : 'forward'));
  const store = storeAt(t, 'settle-fence', {}, proxy.endpoint);
  await assert.rejects(
    () => store.create('runs/r/journal/00000002', Buffer.alloc(0)),
    (error: Error & Record<string, unknown>) => (
      assertFailed(error, store, /cannot tell whether it was this runner's: an empty body names no writer/),
      true
    ),
  );
  assert.deepEqual(proxy.seen, ['PUT slowdown', 'PUT forward', 'GET forward']);
});

test('503 SlowDown on every attempt: get, create and list fail with STORE_FAILED naming the store and what to check, no credential', async (t) => {
  const proxy = await slowDownProxy(t, () => 'slowdown');
  const store = storeAt(t, 'throttled', {}, proxy.endpoint);
  assertFailed(
    await rejection(store.get('runs/r1/lease/0001')),
    store,
    /cannot read runs\/r1\/lease\/0001 \(HTTP 503 SlowDown\)/,
  );
  assertFailed(
    await rejection(store.create('runs/r1/lease/0001', Buffer.from('x'))),
    store,
    /cannot write runs\/r1\/lease\/0001, and cannot read it back .*\(HTTP 503 SlowDown\)/,
  );
  assertFailed(await rejection(store.list('runs/')), store, /cannot list runs\/ \(HTTP 503 SlowDown\)/);
  const error = await rejection(store.list('runs/'));
  assert.match((error as unknown as StoreError).hint!, /failing or throttling/);
  // Three attempts each (the SDK's retries): get 3, create 3 then a read-back of 3, list 3 + 3.
  assert.equal(proxy.seen.length, 15);
});

test('503 SlowDown on every PUT that never reached RGW: the create fails with STORE_FAILED, and the key is absent', async (t) => {
  const proxy = await slowDownProxy(t, (method) => (method === 'PUT' ? 'slowdown' : 'forward'));
  const store = storeAt(t, 'throttled-put', {}, proxy.endpoint);
  assertFailed(
    await rejection(store.create('runs/r1/lease/0001', Buffer.from('x'))),
    store,
    /cannot write runs\/r1\/lease\/0001 \(HTTP 503 SlowDown\)/,
  );
  assert.equal(await storeAt(t, 'throttled-put').get('runs/r1/lease/0001'), undefined);
});

// Last: it stops the cluster.
test('run --store s3://: a runner lost with its disk is resumed on another machine from the bucket and the run id alone, nothing applied sent again', async (t) => {
  const { runCli } = await import('../helpers/cli.ts');
  const { startEmulator } = await import('../helpers/emulator.ts');
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-s3-run-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
name: Stored in S3
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  const env = {
    ...ceph.env,
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    ENGINECTL_STORE: ceph.storeUrl('runs-e2e'),
  };
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  const first = await runCli(['run', file, '--journal', join(dir, 'lost.jsonl')], { env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const id = /^run: (\S+) in s3:\/\//m.exec(first.stdout)?.[1];
  assert.ok(id, first.stdout + first.stderr);
  rmSync(join(dir, 'lost.jsonl'));
  const applied = (suffix: string) => emulator.requests.filter((r) => r.applied && r.path.endsWith(suffix)).length;
  const listed = await runCli(['runs'], { env });
  assert.match(listed.stdout, new RegExp(`^${id}  .*"Stored in S3"`, 'm'));
  const refused = await runCli(['run', file, '--resume', id!], { env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /in doubt: "VFS update prod"/);
  const resumed = await runCli(['run', file, '--resume', id!, '--in-doubt', 'skip'], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.deepEqual([applied('/transaction-log/clear'), applied('/update/vfs')], [1, 1]);
  assert.equal((await runCli(['report', '--run', id!], { env })).code, 0);
  for (const secret of [ceph.secretAccessKey])
    assert.ok(!(first.stdout + resumed.stdout + refused.stderr).includes(secret));
});

test('the fleet lease on RGW: 1,000 rounds of 2-8 runners at once on the same lease, exactly one holder per round', async (t) => {
  const { raceRounds } = await import('../helpers/lease-race.ts');
  const winners = await raceRounds(storeAt(t, 'lease-races'), 1000, 25);
  assert.deepEqual([...new Set(winners)], [1]);
});

test('a store cut between a write and the next: the next send record cannot be put in S3, so that write is never sent; every report is written', async (t) => {
  const { runCli } = await import('../helpers/cli.ts');
  const { startEmulator } = await import('../helpers/emulator.ts');
  const { gatewayInFront } = await import('../helpers/gateway.ts');
  const { url, emulator } = await startEmulator(t);
  let cut = false;
  // The network to the store goes once the first write reached the server: every PUT after it fails.
  const proxy = await slowDownProxy(t, (method) => (cut && method === 'PUT' ? 'slowdown' : 'forward'));
  const api = await gatewayInFront(
    t,
    url,
    () => undefined,
    (method, path) => {
      if (method === 'POST' && path.endsWith('/transaction-log/clear')) cut = true;
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-s3-cut-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
name: Cut from the store
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: transaction-log/clear
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  const env = {
    ...ceph.env,
    ENGINE_URL: api,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
  };
  const r = await runCli(
    ['run', file, '--store', ceph.storeUrl('runs-cut', proxy.endpoint), '--report-json', join(dir, 'r.json')],
    { env },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /could not be put in the run store/);
  assert.equal(
    emulator.requests.filter((q) => q.path.endsWith('/update/vfs')).length,
    0,
    'the write whose record is not in the store was not sent',
  );
  assert.ok(readFileSync(join(dir, 'r.json'), 'utf8').includes('"outcome"'), 'the report is written');
  assert.ok(!(r.stdout + r.stderr).includes(ceph.secretAccessKey));
});

test("a write's record that took longer than 30 s to be put in the bucket: the write is not sent, the run stops, every report written", async (t) => {
  const { startEmulator } = await import('../helpers/emulator.ts');
  const { proxyInFront } = await import('../helpers/s3-proxy.ts');
  const { runCli } = await import('../helpers/cli.ts');
  const { url, emulator } = await startEmulator(t);
  // The run's steady time: the PUT of the vfs update's record takes 31 s on it (the store answering late).
  let late = 0;
  const stopwatch = () => performance.now() + late;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, _path, body) => {
      if (method === 'PUT' && body.includes('"t":"send"') && body.includes('/update/vfs')) late += 31_000;
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-s3-late-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
name: A late record
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: transaction-log/clear
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  const env = {
    ...ceph.env,
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
  };
  const r = await runCli(
    ['run', file, '--store', ceph.storeUrl('runs-late', proxy), '--report-json', join(dir, 'r.json')],
    { env, stopwatch },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout + r.stderr,
    /took 31(\.0)?s to be written, longer than the 30s a write may be handed to the network after its record: it was not sent/,
  );
  assert.equal(emulator.requests.filter((q) => q.path.endsWith('/update/vfs')).length, 0, 'the write was not sent');
  assert.equal(emulator.requests.filter((q) => q.path.endsWith('/transaction-log/clear')).length, 1);
  assert.ok(readFileSync(join(dir, 'r.json'), 'utf8').includes('"outcome"'), 'the report is written');
});

test('RGW stopped (connection refused): get, create and list fail with STORE_FAILED naming the store and its endpoint, no credential', async (t) => {
  const store = storeAt(t, 'stopped');
  await store.create('runs/r1/lease/0001', Buffer.from('x'));
  await ceph.stop();
  assertFailed(
    await rejection(store.get('runs/r1/lease/0001')),
    store,
    /cannot read runs\/r1\/lease\/0001 \(ECONNREFUSED\)/,
  );
  assertFailed(
    await rejection(store.create('runs/r1/lease/0002', Buffer.from('x'))),
    store,
    /cannot write runs\/r1\/lease\/0002, and cannot read it back to tell whether it was written \(ECONNREFUSED\)/,
  );
  const error = await rejection(store.list('runs/'));
  assertFailed(error, store, /cannot list runs\/ \(ECONNREFUSED\)/);
  assert.match((error as unknown as StoreError).hint!, new RegExp(`check the endpoint ${ceph.endpoint} is reachable`));
});
