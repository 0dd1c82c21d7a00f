// A listing of the run store that lags the keys just created (an NFS client's cached directory, an
// eventually consistent S3: here Ceph's RADOS Gateway behind a proxy that leaves the newest key out
// of the listings of a worker's lease) never makes a live worker look gone: a lease's state is its
// listed keys, then the keys after them read by name (a read by name does not lag), so no other
// worker takes over the site it has a call in flight at.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten, withoutNewest } from '../helpers/s3-proxy.ts';
import { shardFleet, workerProcess } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a worker whose listing of another worker's lease lags (its newest key left out) does not take over that worker's site while it lives: its call in flight is sent once", async (t) => {
  let lagging: string | undefined;
  let lagged = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, _path, _body, query) => {
      if (!lagging || method !== 'GET' || !query.get('prefix')?.endsWith(lagging)) return;
      lagged += 1;
      return rewritten(withoutNewest);
    },
  );
  const held: { site?: string; release?: () => void } = {};
  const f = await shardFleet(
    t,
    2,
    '  over: site\n  waves: [rest]',
    {
      before: (method, path) => {
        if (held.site || method !== 'POST' || !path.endsWith('/update/system')) return;
        held.site = /site-[0-9]{4}/.exec(path)?.[0] ?? 'unknown';
        return new Promise<void>((resolve) => (held.release = resolve));
      },
    },
    { store: { url: ceph.storeUrl(`lagging-list-${Date.now()}`, proxy), env: ceph.env } },
  );
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const args = (index: string, ...more: string[]) => [
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    index,
    ...more,
  ];
  const first = workerProcess(args('1/2'), { ...f.env, SITE_USER: 'worker-1' });
  t.after(() => first.child.kill('SIGKILL'));
  let ended: string | undefined;
  void first.done.then((d) => (ended = d.out));
  while (!held.release) {
    if (ended !== undefined) assert.fail(`the first worker ended before its update was held: ${ended}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // From here, every listing of the first worker's lease leaves its newest key out.
  lagging = `/leases/${run}.shard-0/`;
  const second = await runCli(args('2/2', '--shard-wait', '1s'), { env: { ...f.env, SITE_USER: 'worker-2' } });
  const said = second.stdout + second.stderr;
  assert.ok(lagged > 0, `the second worker listed the first's lease: ${said}`);
  assert.doesNotMatch(said, new RegExp(`${held.site}: taken over`));
  assert.equal(second.code, 75, said);
  assert.match(second.stdout, new RegExp(`parked: waiting for wave 1's 1 site\\(s\\) not ended \\(${held.site}\\)`));
  lagging = undefined;
  held.release!();
  const done = await first.done;
  assert.equal(done.code, 0, done.out);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 }, 'each update applied once');
});
