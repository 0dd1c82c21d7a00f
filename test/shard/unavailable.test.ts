// A worker of a sharded run that stops on its store or its lease before it sends anything exits 69
// (SHARD_UNAVAILABLE, EX_UNAVAILABLE: run the same index again), whatever the store said: LEASE_HELD
// (its index's lease held by a live attempt past its wait) or STORE_FAILED. The table of error codes
// (docs/error-codes.md) says so on those codes' rows. Through the CLI (runCli), the wait on the
// simulated clock.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease } from '../../src/store/lease.ts';
import { shardKeys, workerLease } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

/** The exit column of a code's row in docs/error-codes.md. */
function documentedExit(code: string): string {
  const page = readFileSync(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
  return new RegExp(`^\\| \`${code}\` \\| ([^|]+) \\|`, 'm').exec(page)![1]!.trim();
}

test('a worker whose index lease a live attempt holds past its wait exits 69, sending nothing; LEASE_HELD documents it', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const { run } = await f.shard('--shards', '1');
  // Another attempt of index 1, alive: its lease renewed far past the worker's wait (its ttl and a heartbeat).
  await acquireLease(new DirectoryStore(f.storeUrl), workerLease(run, 0), {
    holder: { runId: 'another-attempt', actor: 'ci', host: 'runner-2' },
    ttlMs: 24 * 60 * 60_000,
    waitMs: 0,
    clock: { now: Date.now, sleep: async () => undefined },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const r = await runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'], {
    env: f.env,
    clock: simulatedClock(),
  });
  assert.equal(r.code, 69, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /is held by run another-attempt of ci on runner-2 .*; this worker sent nothing: run the same index again/,
  );
  assert.match(r.stderr, /code: SHARD_UNAVAILABLE\n$/);
  // A worker has no wait: to give: its hint says what does go on.
  assert.doesNotMatch(r.stderr, /longer wait/);
  assert.match(r.stderr, /hint: .*run the same index again once that attempt has ended/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing was sent');
  assert.equal(documentedExit('LEASE_HELD'), "2; a shard's worker: 69");
});

test('a worker whose store fails before it sends anything (its attempt cannot be registered) exits 69; STORE_FAILED documents it', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const { run } = await f.shard('--shards', '1');
  // A file where the index's attempts are kept: listed as none (as S3 lists none under a key), the
  // store cannot write the attempt there (ENOTDIR).
  const workers = join(f.store, shardKeys(run).workers(0));
  mkdirSync(join(workers, '..'), { recursive: true });
  writeFileSync(workers.replace(/\/$/, ''), '');
  const r = await f.worker(run, '1/1');
  assert.equal(r.code, 69, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /cannot write shards\/\S+\/workers\/00000\/\S+ .*; this worker sent nothing: run the same index again/,
  );
  assert.match(r.stderr, /code: SHARD_UNAVAILABLE\n$/);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing was sent');
  assert.equal(documentedExit('STORE_FAILED'), "1; a shard's worker: 69");
});

test("a worker on a runner without the store's share (its directory not there) exits 69, sending nothing and making no store of its own", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const { run } = await f.shard('--shards', '1');
  // This runner's mount point, empty: the share holding the store is not mounted here.
  const mountPoint = join(f.dir, 'unmounted');
  mkdirSync(mountPoint);
  const here = `file://${join(mountPoint, 'store')}`;
  const r = await runCli(['run', f.file, '--store', here, '--run', run, '--shard', '1/1'], { env: f.env });
  assert.equal(r.code, 69, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /the store's directory \S+\/unmounted\/store is not there.*this worker sent nothing: run the same index again/,
  );
  assert.match(r.stderr, /code: SHARD_UNAVAILABLE\n$/);
  assert.deepEqual(readdirSync(mountPoint), [], 'no store made on the runner');
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing was sent');
});
