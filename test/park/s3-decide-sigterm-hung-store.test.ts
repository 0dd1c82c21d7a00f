// decide, runs, lease and verify --store over an S3 store that stops answering (every request
// held: here Ceph's RADOS Gateway behind a proxy that holds every request), sent SIGTERM (a CI job
// cancelled): their store calls are cut once their `?grace=` after the signal ran out, and each
// exits 143, saying so, as a run does (test/store/s3-sigterm-hung-store.test.ts). Before, their
// calls each waited their `?timeout=` (decide had not exited 2 min 43 s after SIGTERM). The built
// CLI as a process, a real SIGTERM; no bound on time: the hang holds until the test ends, so a
// command that exits did so by cutting its calls.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, test, type TestContext } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { startCeph } from '../helpers/ceph.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { until } from '../helpers/timing.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** `args` of the built CLI, its store (`--store URL`) behind a proxy that holds every request; SIGTERM once one is held: its exit code and output. */
async function stoppedOverHungStore(t: TestContext, args: (url: string) => string[]) {
  let held = 0;
  const releases: (() => void)[] = [];
  t.after(() => releases.forEach((r) => r()));
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    () => {
      held += 1;
      return new Promise<void>((r) => releases.push(r));
    },
  );
  const url = ceph.storeUrl(`sigterm-${Date.now()}`, proxy);
  const child = spawn(process.execPath, [CLI, ...args(url)], {
    env: cleanEnv(ceph.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  let ended = false;
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => ((ended = true), resolve(code))));
  await until(() => held > 0 || ended);
  assert.equal(ended, false, out);
  child.kill('SIGTERM');
  return { code: await closed, out };
}

const RUN = '20261205T000000Z-0123456789ab';

for (const [command, args] of [
  [
    'decide --store',
    (url: string) => ['decide', '--store', url, '--run', RUN, '--skip', 'site-002', '--reason', 'checked'],
  ],
  ['runs --store', (url: string) => ['runs', '--store', url]],
  ['lease status --store', (url: string) => ['lease', 'status', 'fleet', '--store', url]],
  ['verify --store', (url: string) => ['verify', '--store', url, '--run', RUN]],
] as const)
  test(`SIGTERM to ${command} whose S3 store answers nothing: its store calls are cut after their grace, exit 143, saying so`, async (t) => {
    const r = await stoppedOverHungStore(t, args);
    assert.equal(r.code, 143, r.out);
    assert.match(r.out, /the store's calls were cut 5s after SIGTERM/);
  });
