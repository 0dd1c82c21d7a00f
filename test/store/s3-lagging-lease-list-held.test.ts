// verify --store URL --run ID of a run a live runner still writes is refused (JOURNAL_LOCKED): what
// says the runner is alive is the lease it renews (app/stored-run-held.ts). Its leases are read
// from the store's `leases/` keys, and a listing may lag the keys just created (an NFS client's
// cached directory, an eventually consistent S3: here Ceph's RADOS Gateway behind a proxy whose
// listings of the leases are those of before the runner started). The run's own lease and the
// fleet lease its journal names are read by name, and every lease's keys after its newest listed
// one: before, the fleet lease read as its earlier holder's release, and the run's own lease not at
// all, so verify judged the run "not held" and read its write in flight as in doubt.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { S3Store } from '../../src/store/s3.ts';
import { cleanEnv, runCli } from '../helpers/cli.ts';
import { startCeph } from '../helpers/ceph.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { proxyInFront, rewritten } from '../helpers/s3-proxy.ts';
import { until } from '../helpers/timing.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const PATCH = '/api/classes/v1/classes/12/entities/2001';

test('verify --store --run of a run whose runner is alive, over a listing of the leases that lags the runner\'s lease records: refused (JOURNAL_LOCKED), not read as "not held"', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const prefix = `lagging-held-${Date.now()}`;
  const env = { ...ceph.env, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lagging-held-'));
  // An earlier run held the fleet lease and gave it up: the records a lagging listing still shows.
  const earlier = join(dir, 'earlier.yml');
  writeFileSync(
    earlier,
    'version: 1\nname: Earlier\nlease: { name: fleet, ttl: 10m }\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: none }\n',
  );
  const first = await runCli(['run', earlier, '--store', ceph.storeUrl(prefix)], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  const before = new Set(await store.list('leases/'));
  assert.ok(before.has('leases/fleet/00000002'), [...before].join(', '));
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, _path, _body, query) => {
      if (method !== 'GET' || !query.get('prefix')?.endsWith(`${prefix}/leases/`)) return;
      // The listing as it was before the runner started: the keys created since left out.
      return rewritten((xml) =>
        xml.replace(/<Contents>[^]*?<Key>([^<]*)<\/Key>[^]*?<\/Contents>/g, (c, key: string) =>
          before.has(key.slice(prefix.length + 1)) ? c : '',
        ),
      );
    },
  );

  // The runner: the CLI's source as a process, its PATCH unanswered, its leases held.
  emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
  const file = join(dir, 'upd.yml');
  writeFileSync(
    file,
    `version: 1
name: Leased update
lease: { name: fleet, ttl: 10m }
steps:
  - id: upd
    uses: classes/update
    timeout: 10m
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'run', file, '--store', ceph.storeUrl(prefix)], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  let ended = false;
  child.on('close', () => (ended = true));
  const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === PATCH).length;
  await until(() => patches() === 1 || ended);
  assert.equal(ended, false, `the run ended before its write reached the server: ${out}`);
  const id = /^run: (\S+) in /m.exec(out)?.[1];
  assert.ok(id, out);
  assert.ok(await store.get('leases/fleet/00000003'), 'the runner holds the fleet lease');

  const requests = emulator.requests.length;
  const live = await runCli(['verify', '--store', ceph.storeUrl(prefix, proxy), '--run', id], { env });
  assert.equal(live.code, 2, live.stdout + live.stderr);
  assert.match(live.stderr, /code: JOURNAL_LOCKED/);
  assert.match(live.stderr, new RegExp(`run ${id} is in use by run ${id} of .*, whose lease fleet is renewed until`));
  assert.equal(live.stdout, '', 'no verdict');
  assert.equal(emulator.requests.length, requests, 'nothing was read from the server');
});
