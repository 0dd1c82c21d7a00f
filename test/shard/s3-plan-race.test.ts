// Two plan jobs of one CI run at once (a matrix job started twice, a re-run beside its first
// attempt), here on Ceph's RADOS Gateway behind a proxy that holds the first planner's write of the
// manifest until the second planned: one run is named under the key, one manifest is written, and
// a planner whose manifest write found another's there prints that one, or is refused when it is
// not its plan (never a fan-out its workers would be refused).
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/fleet',
  GITHUB_RUN_ID: '9003',
  GITHUB_RUN_ATTEMPT: '1',
};

/** A proxy in front of RGW that holds the first write of a manifest until released: `reached` once it holds it. */
async function holdFirstManifest(t: TestContext) {
  let release: () => void = () => undefined;
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let held = false;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (held || method !== 'PUT' || !path.endsWith('/manifest')) return;
      held = true;
      reach();
      return new Promise<void>((resolve) => (release = resolve));
    },
  );
  return { proxy, reached, release: () => release() };
}

test("a planner whose manifest write finds another planner's manifest there, over other --shards, is refused: it prints no fan-out its workers would be refused", async (t) => {
  const { proxy, reached, release } = await holdFirstManifest(t);
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`plan-race-${Date.now()}`, proxy), env: ceph.env },
  });
  const plan = (shards: string) =>
    runCli(['shard', f.file, '--store', f.storeUrl, '--shards', shards], { env: { ...f.env, ...GITHUB } });
  const first = plan('2');
  await reached;
  // The second planner reads the key's run, finds no manifest yet, and plans it over 3 shards.
  const second = await plan('3');
  assert.equal(second.code, 0, second.stdout + second.stderr);
  release();
  const late = await first;
  const run = /^run (\S+) in /m.exec(second.stderr)![1]!;
  assert.equal(late.code, 2, late.stdout + late.stderr);
  assert.equal(late.stdout, '', 'no fan-out');
  assert.match(late.stderr, new RegExp(`run ${run} was planned under this key .*over 3 shard\\(s\\), not 2`));
  // The run's workers, as the second planner printed them, run every site.
  for (const w of await Promise.all(['1/3', '2/3', '3/3'].map((s) => f.worker(run, s))))
    assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
});

test("two CI runs planning one fleet at once start one rollout: the planner that finds the other's plan under way is refused, naming it", async (t) => {
  const { proxy, reached, release } = await holdFirstManifest(t);
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`plan-race-runs-${Date.now()}`, proxy), env: ceph.env },
  });
  const plan = (runId: string) =>
    runCli(['shard', f.file, '--store', f.storeUrl, '--shards', '2'], {
      env: { ...f.env, ...GITHUB, GITHUB_RUN_ID: runId },
    });
  // The first CI run's planner read no run of the fleet, and is writing its manifest.
  const first = plan('9101');
  await reached;
  const second = await plan('9102');
  release();
  const late = await first;
  assert.equal(late.code, 0, late.stdout + late.stderr);
  const run = /^run (\S+) in /m.exec(late.stderr)![1]!;
  assert.equal(second.code, 2, second.stdout + second.stderr);
  assert.equal(second.stdout, '', 'no fan-out');
  assert.match(second.stderr, new RegExp(`run ${run} of this fleet .*has not ended`));
  assert.match(second.stderr, /named by a plan job that has not written its manifest yet/);
  assert.match(second.stderr, /wait for that plan job to end.*or plan past it with --new-run/);
  // One rollout in the store.
  const runs = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(runs.stdout.trimEnd().split('\n').length, 1, runs.stdout);
});
