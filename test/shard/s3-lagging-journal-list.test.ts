// A listing of the run store that lags the keys just created (an NFS client's cached directory, an
// eventually consistent S3: here Ceph's RADOS Gateway behind a proxy that leaves the newest key out
// of the listings of a site's journal) does not stop a worker taking over a site whose worker is
// gone: a journal is its listed segments, then the segments after them read by name (a read by name
// does not lag), so its fence goes after its last segment, and its call in doubt is verified.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { realClock } from '../../src/app/clock.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten, withoutNewest } from '../helpers/s3-proxy.ts';
import { shardFleet, workerProcess } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a worker whose listing of a gone worker's site journal lags (its newest segment left out) takes the site over all the same: its call in doubt verified, sent once", async (t) => {
  let lagging = false;
  let lagged = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, _path, _body, query) => {
      if (!lagging || method !== 'GET' || !/\/runs\/[^/]+\/journal\/$/.test(query.get('prefix') ?? '')) return;
      lagged += 1;
      return rewritten(withoutNewest);
    },
  );
  let held: string | undefined;
  const f = await shardFleet(
    t,
    1,
    '  over: site\n  waves: [rest]',
    {
      // The gone worker's system update never reaches the API.
      before: (method, path) => {
        if (held || method !== 'POST' || !path.endsWith('/update/system')) return;
        held = path;
        return new Promise<void>(() => undefined);
      },
    },
    { store: { url: ceph.storeUrl(`lagging-journal-${Date.now()}`, proxy), env: ceph.env } },
  );
  // Verified against the source's Engines: past `longest:`, the update is proved not applied.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      'with: { target: prod }',
      'with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }\n    longest: 1s',
    ),
  );
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'];
  const first = workerProcess(args, { ...f.env, SITE_USER: 'worker-1' });
  t.after(() => first.child.kill('SIGKILL'));
  let ended: string | undefined;
  void first.done.then((d) => (ended = d.out));
  while (!held) {
    if (ended !== undefined) assert.fail(`the first worker ended before its update was held: ${ended}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  first.child.kill('SIGKILL');
  await first.done;
  lagging = true;
  // The index again, on a clock 3 minutes on: the killed attempt's lease lapsed, its call long past.
  const real = realClock();
  const later = { now: () => real.now() + 180_000, sleep: real.sleep };
  // The server's clock 3 minutes on too: this clock is not ahead of it.
  f.server.now = () => Date.now() + 180_000;
  const again = await runCli(args, { env: { ...f.env, SITE_USER: 'worker-1' }, clock: later });
  const said = again.stdout + again.stderr;
  assert.ok(lagged > 0, `the site's journal was listed: ${said}`);
  assert.doesNotMatch(said, /grew after this runner read it/);
  assert.equal(again.code, 0, said);
  assert.match(again.stdout, /site-0001: taken over from shard 1 \(gone\)/);
  assert.match(again.stdout, /verify: "Update site-0001": not-applied/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });
});
