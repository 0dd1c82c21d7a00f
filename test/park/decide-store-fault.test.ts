// A decide whose segment landed in an S3 store (Ceph's RADOS Gateway, test/helpers/ceph.ts) while
// its answer was lost: the PUT reached RGW, which wrote it, and the proxy in front
// (test/helpers/s3-proxy.ts) answered 503 SlowDown instead; the SDK's retries are throttled too,
// and so is the store's read-back of the key, so whether it was written is unknown. decide reads
// the journal again and compares the first segment put since it read it with its own bytes: its
// own there means the decision is recorded (exit 0, said); a store it cannot read at all means it
// cannot tell, and says how to look before deciding again (STORE_FAILED, exit 1). Before, the
// first read as "another decision was recorded first ... nothing of this one was recorded"
// (DECISION_REFUSED, exit 2), and the operator decided again.
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten, SLOW_DOWN, withoutNewest } from '../helpers/s3-proxy.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const FLEET = `  over: site
  waves: [[site-001], rest]
  max-failures: 0
  on-failure: decide`;

/**
 * A run parked on site-002's update in doubt, in a store under `prefix` read through a proxy: once
 * `armed`, decide's segment is written by RGW and answered 503, its retries and the read-back of
 * the journal's keys 503; the listing of the bucket after that is answered 503 too while `unreadable`,
 * or (`lagging`) without its newest key, the segment just written, as a listing that lags.
 */
async function parkedInS3(t: TestContext, prefix: string, unreadable: boolean | 'lagging') {
  const f = await parkFleet(t, 3, FLEET);
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-002',
  });
  let phase: 'off' | 'armed' | 'landed' = 'off';
  const journal = (path: string) => path.includes('/journal/');
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body) => {
      if (phase === 'armed' && method === 'PUT' && journal(path) && body.includes('"t":"decide"')) {
        phase = 'landed';
        return { ...SLOW_DOWN, forwarded: true };
      }
      if (phase !== 'landed') return undefined;
      if (journal(path)) return SLOW_DOWN;
      if (method === 'GET' && path === `/${ceph.bucket}/`) {
        if (unreadable === true) return SLOW_DOWN;
        phase = 'off';
        // A listing that lags the keys just created (an eventually consistent S3): the segment left out.
        if (unreadable === 'lagging') return rewritten(withoutNewest);
      }
      return undefined;
    },
  );
  const env = { ...f.env, ...ceph.env };
  const cli = (url: string, ...args: string[]) => runCli(args.concat('--store', url), { env, clock: f.clock });
  const faulty = ceph.storeUrl(prefix, proxy);
  const direct = ceph.storeUrl(prefix);
  const first = await cli(direct, 'run', f.file);
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const decide = async (...args: string[]) => {
    phase = 'armed';
    const r = await cli(faulty, 'decide', '--run', id, ...args);
    assert.equal(phase === 'armed', false, 'the decide segment met the fault');
    return r;
  };
  return { f, id, decide, cli: (...args: string[]) => cli(direct, ...args) };
}

test('decide whose segment RGW wrote while its answer, the retries and the read-back failed: reading the journal again finds its own segment, so it says it was recorded (exit 0), and the continue carries it out', async (t) => {
  const { f, id, decide, cli } = await parkedInS3(t, `decide-landed-${Date.now()}`, false);
  const decided = await decide('--skip', 'site-002', '--reason', 'engines show the new version');
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(decided.stdout, /^recorded: skip site-002 by .*: engines show the new version/m);
  assert.doesNotMatch(decided.stdout + decided.stderr, /another decision was recorded first|nothing of this one/);

  const listed = await cli('decide', '--run', id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.equal(listed.stdout.match(/decided: skip site-002 /g)?.length, 1, listed.stdout);
  const done = await cli('run', f.file, '--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test('decide whose segment RGW wrote while the store then answered nothing it could read: it says it cannot tell whether the decision was recorded and how to look (STORE_FAILED, exit 1), never that nothing was recorded', async (t) => {
  const { id, decide, cli } = await parkedInS3(t, `decide-unreadable-${Date.now()}`, true);
  const decided = await decide('--skip', 'site-002', '--reason', 'engines show the new version');
  assert.equal(decided.code, 1, decided.stdout + decided.stderr);
  assert.match(decided.stderr, /STORE_FAILED/);
  assert.match(decided.stderr, /cannot tell whether the decision was recorded/);
  assert.match(decided.stderr, new RegExp(`enginectl decide --store URL --run ${id}`));
  assert.match(decided.stderr, /decide again only if it is not there/);
  assert.doesNotMatch(decided.stdout + decided.stderr, /another decision was recorded first|nothing of this one/);
  // It was: the store holds it once.
  const listed = await cli('decide', '--run', id);
  assert.equal(listed.stdout.match(/decided: skip site-002 /g)?.length, 1, listed.stdout);
});

test('decide whose segment RGW wrote while its answer, the retries and the read-back failed, over a listing that lags: its segment is read by name, so it says it was recorded (exit 0), not that it is not in the store', async (t) => {
  const { id, decide, cli } = await parkedInS3(t, `decide-lagging-${Date.now()}`, 'lagging');
  const decided = await decide('--skip', 'site-002', '--reason', 'engines show the new version');
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(decided.stdout, /^recorded: skip site-002 by .*: engines show the new version/m);
  assert.doesNotMatch(decided.stdout + decided.stderr, /not found in the store|could not be written/);
  const listed = await cli('decide', '--run', id);
  assert.equal(listed.stdout.match(/decided: skip site-002 /g)?.length, 1, listed.stdout);
});
