// A holder that died at acquire: it wrote its record of the fleet lease, then was lost before its
// journal's first record reached the store (killed while it took its own lease, or opened its
// journal). A call's record is in the store before the call leaves, and its lease is checked
// again once that record is written, so a run whose journal holds no record (none, or fences
// alone) sent nothing: once its lease expired, the next run takes it over, verified, without
// --take-over, the evidence saying why. A store that fails at that read proves nothing: refused
// as before. Through the CLI against the emulator, on a directory store; the lost holder's lease
// written expired (on a clock an hour behind).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, leaseState, type LeaseClock } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const LOST = '20261126T000000Z-abcdef123456';

const PIPELINE = `version: 1
name: Leased check
lease: { name: prod-fleet, ttl: 10m, wait: 0s }
steps:
  - uses: monitoring/alerts
    with: { fail-on: none }
`;

/** A store whose lease prod-fleet a run that left no record took an hour ago (expired); `journal` what it left of its journal. */
async function diedAtAcquire(t: TestContext, journal: (store: DirectoryStore) => Promise<unknown>) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-died-at-acquire-'));
  mkdirSync(join(dir, 'store'));
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    ENGINECTL_STORE: pathToFileURL(join(dir, 'store')).href,
  };
  const store = new DirectoryStore(env.ENGINECTL_STORE);
  const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
  await acquireLease(store, 'prod-fleet', {
    holder: { runId: LOST, actor: 'night-job', host: 'runner-7' },
    ttlMs: 60_000,
    waitMs: 0,
    clock: hourAgo,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  await journal(store);
  const file = join(dir, 'check.yml');
  writeFileSync(file, PIPELINE);
  const json = join(dir, 'next.json');
  const r = await runCli(['run', file, '--report-json', json], { env });
  const alerts = emulator.requests.filter((q) => q.path.endsWith('/alerts')).length;
  return { r, out: r.stdout + r.stderr, json, store, alerts };
}

async function takenOver(t: TestContext, journal: (store: DirectoryStore) => Promise<unknown>) {
  const { r, out, json, store, alerts } = await diedAtAcquire(t, journal);
  assert.equal(r.code, 0, out);
  assert.doesNotMatch(out, /LEASE_TAKEOVER_REFUSED/);
  const evidence = new RegExp(
    `run ${LOST} left no record in the store's journal: it sent nothing \\(a call's record is in the store before the call leaves\\)`,
  );
  assert.match(out, /lease prod-fleet: taken over; took over from run \S+ of night-job on runner-7/);
  assert.match(out, evidence);
  const report = JSON.parse(readFileSync(json, 'utf8')) as {
    lease: { takeover: { evidence: string[]; reason: string | null } };
  };
  assert.match(report.lease.takeover.evidence.join('; '), evidence);
  assert.equal(report.lease.takeover.reason, null, 'no operator was asked');
  const record = (await leaseState(store, 'prod-fleet'))!;
  assert.equal(record.record.kind, 'release', 'the taking run released it at its end');
  assert.equal(alerts, 1, "the taking run's check was sent");
}

test('a holder that died at acquire (its lease record written, no journal in the store) is taken over once its lease expired, without --take-over: it sent nothing', (t) =>
  takenOver(t, async () => undefined));

test('a holder whose journal in the store is a fence alone (a resume that stopped before its first record) is taken over the same way', (t) =>
  takenOver(t, (store) => store.create(`runs/${LOST}/journal/00000001`, Buffer.alloc(0))));
