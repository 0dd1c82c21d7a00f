// The fleet lease on a real directory store (the S3 store's race runs against Ceph's RGW in
// s3.test.ts): one holder per round of runners started at once; a holder killed mid-update is
// taken over once its lease expired and verify read its call; a holder paused past its ttl sends
// nothing more once another took the lease. The emulator's request log is the judge.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, leaseState, releaseAs, type LeaseClock } from '../../src/store/lease.ts';
import { raceRounds } from '../helpers/lease-race.ts';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';

const clock: LeaseClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
const holder = (runId: string) => ({ runId, actor: 'tester', host: 'test-host' });

test('1,000 rounds of 2-8 runners at once on the same lease (a directory store): exactly one holder per round, the others refused LEASE_HELD', async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-race-'))).href);
  const winners = await raceRounds(store, 1000, 25);
  assert.deepEqual([...new Set(winners)], [1]);
});

test('a lease queues first come, first served up to its wait, and is free again once released', async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-queue-'))).href);
  const first = await acquireLease(store, 'fleet', {
    holder: holder('first'),
    ttlMs: 60_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const order: string[] = [];
  const waiter = (id: string) =>
    acquireLease(store, 'fleet', {
      holder: holder(id),
      ttlMs: 60_000,
      waitMs: 120_000,
      clock,
      verifyTakeover: async () => ({ evidence: [] }),
    }).then(async (lease) => {
      order.push(id);
      await lease.release();
    });
  const second = waiter('second');
  // The second took its ticket before the third asked.
  while ((await store.list('leases/fleet/queue/')).length < 1) await clock.sleep(20);
  const third = waiter('third');
  while ((await store.list('leases/fleet/queue/')).length < 2) await clock.sleep(20);
  await first.release();
  await Promise.all([second, third]);
  assert.deepEqual(order, ['second', 'third']);
  assert.equal((await leaseState(store, 'fleet'))!.record.kind, 'release');
});

test("a lease released before a waiter's deadline is the waiter's, even when its wait ends at that check (its own ticket lapses then)", async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-deadline-'))).href);
  let now = 0;
  let release: (() => Promise<void>) | undefined;
  // The holder releases at 4.2s, while the waiter sleeps towards its deadline at 5s.
  const simulated: LeaseClock = {
    now: () => now,
    sleep: async (ms) => {
      const to = now + ms;
      if (release && to >= 4_200) {
        now = 4_200;
        await release();
        release = undefined;
      }
      now = to;
    },
  };
  const first = await acquireLease(store, 'fleet', {
    holder: holder('first'),
    ttlMs: 20_000,
    waitMs: 0,
    clock: simulated,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  release = () => first.release();
  const start = now;
  const waiter = await acquireLease(store, 'fleet', {
    holder: holder('waiter'),
    ttlMs: 20_000,
    waitMs: 5_000,
    clock: simulated,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  assert.equal(now - start, 5_000, 'taken at the check of its deadline');
  assert.equal((await leaseState(store, 'fleet'))!.record.holder.runId, 'waiter');
  await waiter.release();
});

test('a holder that stops renewing is taken over within its ttl and one heartbeat of its last renewal, never before it expired (the simulated clock)', async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-expiry-'))).href);
  let now = 0;
  const simulated: LeaseClock = { now: () => now, sleep: async (ms) => void (now += ms) };
  const ttlMs = 60_000;
  const heartbeatMs = ttlMs / 3;
  const lost = await acquireLease(store, 'fleet', {
    holder: holder('lost'),
    ttlMs,
    waitMs: 0,
    clock: simulated,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  now += heartbeatMs;
  await lost.renew();
  const lastRenewal = now;
  // The holder's machine is lost here: no renewal, no release. Another run queues a while later.
  now += 7_000;
  const next = await acquireLease(store, 'fleet', {
    holder: holder('next'),
    ttlMs,
    waitMs: 30 * 60_000,
    clock: simulated,
    verifyTakeover: async () => ({ evidence: ['nothing in doubt'] }),
  });
  const taken = (await leaseState(store, 'fleet'))!.record;
  assert.equal(taken.kind, 'takeover');
  assert.equal(taken.holder.runId, 'next');
  assert.ok(taken.at > lastRenewal + ttlMs, `taken at ${taken.at}, after the expiry at ${lastRenewal + ttlMs}`);
  assert.ok(
    taken.at <= lastRenewal + ttlMs + heartbeatMs,
    `taken at ${taken.at}: within ttl + one heartbeat of the last renewal (${lastRenewal + ttlMs + heartbeatMs})`,
  );
  await next.release();
});

const PIPELINE = (steps: string) => `version: 1
name: Leased release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
lease: { name: prod-fleet, ttl: 3s, wait: 60s }
steps:
${steps}`;

async function setup(
  t: TestContext,
  steps: string,
  hooks: {
    before?: (method: string, path: string) => void | Promise<void>;
    answered?: (method: string, path: string) => void;
  } = {},
) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-'));
  const storeDir = join(dir, 'store');
  mkdirSync(storeDir);
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE(steps));
  const proxy = await gatewayInFront(t, url, (m, p) => (hooks.answered?.(m, p), undefined), hooks.before);
  const env = {
    ENGINE_URL: proxy,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    ENGINECTL_STORE: pathToFileURL(storeDir).href,
  };
  const applied = (suffix: string) => emulator.requests.filter((r) => r.applied && r.path.endsWith(suffix)).length;
  return { dir, file, env, emulator, applied, storeDir };
}

/** The CLI as a process, its child kept (to kill or pause it), its output and exit awaited. */
function spawnCli(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, done };
}

const UPDATE = `  - id: update
    uses: classes/update
    longest: 1s
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
`;

test('a holder killed mid-update: the next run takes the lease over once it expired, after verify read the update as applied; the lost run resumed sends it 0 times more', async (t) => {
  const holderProcess: { child?: ChildProcess } = {};
  const s = await setup(t, UPDATE, {
    // The API applied the update; its answer never reaches the holder: it is killed first.
    answered: (method, path) => {
      if (method === 'PATCH' && path.endsWith('/entities/2001')) holderProcess.child?.kill('SIGKILL');
    },
  });
  const holder = spawnCli(['run', s.file], s.env);
  holderProcess.child = holder.child;
  const killed = await holder.done;
  assert.equal(killed.signal, 'SIGKILL', killed.out);
  const id = /^run: (\S+) in /m.exec(killed.out)?.[1];
  assert.ok(id, killed.out);
  assert.equal(s.applied('/entities/2001'), 1);

  // Another pipeline of the same fleet: it waits for the lease to expire, then verifies the lost run's call.
  writeFileSync(join(s.dir, 'gate.yml'), PIPELINE('  - uses: monitoring/alerts\n    with: { fail-on: none }\n'));
  const next = await runCli(['run', join(s.dir, 'gate.yml'), '--report-json', join(s.dir, 'next.json')], {
    env: s.env,
  });
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.match(
    next.stdout + next.stderr,
    /lease prod-fleet: taken over; took over from run \S+ .*"Update an entity" \(PATCH [^)]+\): applied: iemailaddress hold the written values/,
  );
  const lease = (
    JSON.parse(readFileSync(join(s.dir, 'next.json'), 'utf8')) as { lease: { takeover: { evidence: string[] } } }
  ).lease;
  assert.match(lease.takeover.evidence.join('; '), /applied: iemailaddress hold the written values/);

  const resumed = await runCli(['run', s.file, '--resume', id!, '--in-doubt', 'verify'], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.applied('/entities/2001'), 1, 'the applied update was not sent again');
});

test('a takeover verify cannot tell is refused, naming the call, until --take-over --reason, which every report records', async (t) => {
  const holderProcess: { child?: ChildProcess } = {};
  const s = await setup(t, '  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n', {
    answered: (method, path) => {
      if (method === 'POST' && path.endsWith('/update/vfs')) holderProcess.child?.kill('SIGKILL');
    },
  });
  const holder = spawnCli(['run', s.file], s.env);
  holderProcess.child = holder.child;
  assert.equal((await holder.done).signal, 'SIGKILL');
  writeFileSync(join(s.dir, 'gate.yml'), PIPELINE('  - uses: monitoring/alerts\n    with: { fail-on: none }\n'));
  const refused = await runCli(['run', join(s.dir, 'gate.yml')], { env: s.env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    /LEASE_TAKEOVER_REFUSED|calls verify cannot tell: "VFS update prod" \(POST \/api\/devops\/v1\/update\/vfs\): cannot-tell/,
  );
  assert.equal(s.emulator.requests.filter((r) => r.path.endsWith('/alerts')).length, 0, 'nothing was sent');
  const taken = await runCli(
    [
      'run',
      join(s.dir, 'gate.yml'),
      '--take-over',
      '--reason',
      'checked PROD: vfs file 1001 is at the new version',
      '--summary',
      join(s.dir, 'taken.md'),
    ],
    { env: s.env },
  );
  assert.equal(taken.code, 0, taken.stdout + taken.stderr);
  assert.match(
    readFileSync(join(s.dir, 'taken.md'), 'utf8'),
    /accepted by the operator: checked PROD: vfs file 1001 is at the new version/,
  );
});

test('a holder paused past its ttl sends nothing more once another run took the lease: it stops LEASE_LOST, every report written', async (t) => {
  const holderProcess: { child?: ChildProcess } = {};
  let paused = false;
  const s = await setup(
    t,
    '  - uses: transaction-log/clear\n  - id: vfs\n    uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
    {
      before: (method, path) => {
        if (!paused && method === 'POST' && path.endsWith('/transaction-log/clear')) {
          paused = true;
          holderProcess.child?.kill('SIGSTOP');
        }
      },
    },
  );
  const holder = spawnCli(['run', s.file, '--report-json', join(s.dir, 'holder.json')], s.env);
  holderProcess.child = holder.child;
  while (!paused) await clock.sleep(20);
  writeFileSync(join(s.dir, 'gate.yml'), PIPELINE('  - uses: monitoring/alerts\n    with: { fail-on: none }\n'));
  const next = await runCli(
    ['run', join(s.dir, 'gate.yml'), '--take-over', '--reason', 'the clear is harmless to repeat'],
    { env: s.env },
  );
  assert.equal(next.code, 0, next.stdout + next.stderr);
  holder.child.kill('SIGCONT');
  const woke = await holder.done;
  assert.equal(woke.code, 1, woke.out);
  assert.match(woke.out, /LEASE_LOST|lease prod-fleet is no longer this run's/);
  assert.equal(
    s.emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length,
    0,
    'the paused holder sent no write after the takeover',
  );
  assert.ok(readFileSync(join(s.dir, 'holder.json'), 'utf8').length > 0, 'its report is written');
});

test(`lease status names the holder and the queue; lease release --reason gives a lost holder's lease up, recorded, and the next run takes it at once`, async (t) => {
  const s = await setup(t, '  - uses: monitoring/alerts\n    with: { fail-on: none }\n');
  const store = new DirectoryStore(s.env.ENGINECTL_STORE);
  // A runner lost while it held the lease for an hour.
  await acquireLease(store, 'prod-fleet', {
    holder: { runId: '20261126T000000Z-abcdef', actor: 'night-job', host: 'runner-7' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const status = await runCli(['lease', 'status', 'prod-fleet'], { env: s.env });
  assert.equal(status.code, 0, status.stderr);
  assert.match(
    status.stdout,
    /^lease prod-fleet: held by run 20261126T000000Z-abcdef of night-job on runner-7, until \S+$/m,
  );
  // This one does not queue: wait: 0s refuses at once.
  writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('wait: 60s', 'wait: 0s'));
  const busy = await runCli(['run', s.file], { env: s.env });
  assert.equal(busy.code, 2, busy.stdout + busy.stderr);
  assert.match(
    busy.stderr,
    /lease prod-fleet is held by run 20261126T000000Z-abcdef of night-job on runner-7 until \S+; this run does not wait \(wait: 0s\)/,
  );
  assert.equal(
    (await runCli(['lease', 'release', 'prod-fleet'], { env: s.env })).code,
    2,
    'a release needs its reason',
  );
  const released = await runCli(
    ['lease', 'release', 'prod-fleet', '--reason', 'runner-7 was lost; its run is resumed by hand'],
    { env: { ...s.env, USER: 'ops-jane' } },
  );
  assert.equal(released.code, 0, released.stderr);
  assert.match(
    (await runCli(['lease', 'status', 'prod-fleet'], { env: s.env })).stdout,
    /free \(released \S+ by ops-jane@\S+: runner-7 was lost/,
  );
  const next = await runCli(['run', s.file], { env: s.env });
  assert.equal(next.code, 0, next.stdout + next.stderr);
});

test('a lease over a matrix key is one lease per value: a run on STAGING goes on while PROD is held; a run that selects PROD is refused', async (t) => {
  const s = await setup(
    t,
    `  - uses: update/vfs
    matrix: { target: [staging, prod] }
    with: { target: "\${{ matrix.target }}", files: [1001] }
`,
  );
  writeFileSync(
    s.file,
    readFileSync(s.file, 'utf8')
      .replace(
        'lease: { name: prod-fleet, ttl: 3s, wait: 60s }',
        'lease: { name: fleet, ttl: 1m, wait: 0s, over: target }',
      )
      .replace(
        'targets:\n',
        'targets:\n  staging: { server: staging-db.example.com, database: STAGING, token: staging-token }\n',
      ),
  );
  const store = new DirectoryStore(s.env.ENGINECTL_STORE);
  await acquireLease(store, 'fleet.prod', {
    holder: { runId: '20261126T000000Z-abcdef', actor: 'release-prod', host: 'runner-2' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const staging = await runCli(
    ['run', s.file, '--only', 'target=staging', '--report-json', join(s.dir, 'staging.json')],
    { env: s.env },
  );
  assert.equal(staging.code, 0, staging.stdout + staging.stderr);
  assert.equal(
    (JSON.parse(readFileSync(join(s.dir, 'staging.json'), 'utf8')) as { lease: { name: string } }).lease.name,
    'fleet.staging',
  );
  const all = await runCli(['run', s.file], { env: s.env });
  assert.equal(all.code, 2, all.stdout + all.stderr);
  assert.match(all.stderr, /lease fleet\.prod is held by run 20261126T000000Z-abcdef of release-prod on runner-2/);
  assert.equal(s.applied('/update/vfs'), 1, 'STAGING only; the refused run sent nothing');
  assert.equal(
    (await leaseState(store, 'fleet.staging'))!.record.kind,
    'release',
    'the refused run gave back the lease it had taken',
  );
});

test('runs started at once on one lease through the CLI: exactly one writes each round, the others send nothing (50 rounds of 2-8 runs)', async (t) => {
  // The winner's write is held at the gateway until every other run of its round has ended, so the
  // runs of a round overlap however slow the machine: a loser cannot find the lease released.
  const round = { ended: 0, size: 0, held: [] as (() => void)[] };
  const releaseIfDone = () => {
    if (round.ended >= round.size - 1 || round.held.length > 1) round.held.splice(0).forEach((go) => go());
  };
  const s = await setup(t, '  - uses: transaction-log/clear\n', {
    before: (method) =>
      method === 'POST'
        ? new Promise<void>((go) => {
            round.held.push(go);
            releaseIfDone();
          })
        : undefined,
  });
  writeFileSync(s.file, readFileSync(s.file, 'utf8').replace('ttl: 3s, wait: 60s', 'ttl: 60s, wait: 0s'));
  for (let r = 0; r < 50; r++) {
    const n = 2 + (r % 7);
    Object.assign(round, { ended: 0, size: n, held: [] });
    const before = s.emulator.requests.filter((q) => q.method === 'POST').length;
    const runs = await Promise.all(
      Array.from({ length: n }, () =>
        runCli(['run', s.file, '--lease', `race-${r}`], { env: s.env }).finally(() => {
          round.ended += 1;
          releaseIfDone();
        }),
      ),
    );
    const writers = runs.filter((x) => x.code === 0).length;
    assert.equal(writers, 1, `round ${r}: ${runs.map((x) => x.code).join(',')}`);
    for (const x of runs) if (x.code !== 0) assert.match(x.stderr, new RegExp(`lease race-${r} is held by`));
    assert.equal(
      s.emulator.requests.filter((q) => q.method === 'POST').length - before,
      1,
      `round ${r}: one write reached the server`,
    );
  }
});

test("a check while the holder's own renewal is being written is not a loss: the key it finds is its own (the heartbeat and a write's check at once)", async () => {
  const inner = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-renew-'))).href);
  // The renewal's key is on disk before the store's answer reaches the holder: held until released.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  let holding = false;
  const store = Object.assign(Object.create(inner) as DirectoryStore, {
    create: async (key: string, body: Buffer) => {
      const created = await inner.create(key, body);
      if (holding) await held;
      return created;
    },
  });
  const lease = await acquireLease(store, 'fleet', {
    holder: holder('me'),
    ttlMs: 60_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  holding = true;
  const renewing = lease.renew();
  while ((await inner.list('leases/fleet/')).filter((k) => /\/[0-9]{8}$/.test(k)).length < 2) await clock.sleep(5);
  const checked = lease.check().then(
    () => 'held',
    (e: Error) => e.message,
  );
  release();
  await renewing;
  assert.equal(await checked, 'held');
  await lease.check();
});

test("the check before a write that finds the holder's own renewal, applied by the store but failed to the holder, holds the lease; another's record there is still a loss", async () => {
  const inner = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-in-doubt-'))).href);
  // The next create is applied and then fails (the store's answer lost).
  let failNext = false;
  const store = Object.assign(Object.create(inner) as DirectoryStore, {
    create: async (key: string, body: Buffer) => {
      const created = await inner.create(key, body);
      if (failNext) {
        failNext = false;
        throw new Error('503 SlowDown after the write');
      }
      return created;
    },
  });
  const lease = await acquireLease(store, 'fleet', {
    holder: holder('me'),
    ttlMs: 60_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  failNext = true;
  await assert.rejects(lease.renew(), /503 SlowDown after the write/);
  await lease.check();
  assert.equal(lease.token, 'leases/fleet/00000002', 'its own renewal is its token');
  await lease.renew();
  assert.equal(lease.token, 'leases/fleet/00000003');
  // A renewal that failed unapplied, and an operator's release at that key (the holder's identity, its own bytes): a loss.
  const failing = Object.assign(Object.create(inner) as DirectoryStore, {
    create: async (key: string, body: Buffer) => {
      if (key.endsWith('/00000004') && JSON.parse(body.toString()).kind === 'renew') throw new Error('503');
      return inner.create(key, body);
    },
  });
  const other = await acquireLease(failing, 'other', {
    holder: holder('me'),
    ttlMs: 60_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  await other.renew();
  await other.renew();
  await assert.rejects(other.renew(), /503/);
  const state = (await leaseState(inner, 'other'))!;
  await releaseAs(inner, 'other', state, 'ops', 'gone', Date.now());
  await assert.rejects(other.check(), /released by ops \(gone\)/);
});
