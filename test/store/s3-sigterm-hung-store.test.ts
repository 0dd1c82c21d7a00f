// A run over an S3 store that stops answering (every request held: a black-holed route, a hung
// gateway; here Ceph's RADOS Gateway behind a proxy that holds every request from a moment on),
// sent SIGTERM (a CI system cancelling the job: GitHub gives about 7.5 s before SIGKILL, Kubernetes
// 30 s): the store's calls are given a short grace after the signal (`?grace=`, 5s by default), then
// cut, and the run exits with its interrupt code (143) having written what it could: its local
// journal holds every record it wrote, the store's copy those it took before it stopped answering.
// Before, each store call waited its `?timeout=` (60 s of silence, per attempt), past any grace
// period. The built CLI as a process, a real SIGTERM; no bound on time: the hang holds until the
// test ends, so a run that exits did so by cutting its calls.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readStoredJournal } from '../../src/journal/replica.ts';
import { S3Store } from '../../src/store/s3.ts';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { startCeph } from '../helpers/ceph.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { until } from '../helpers/timing.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const PATCH = '/api/classes/v1/classes/12/entities/2001';

test('SIGTERM to a run whose S3 store stopped answering: its store calls are cut after their grace, exit 143, the local journal holding the record the store did not take', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
  const prefix = `sigterm-hung-${Date.now()}`;
  let holding = false;
  let held = 0;
  const releases: (() => void)[] = [];
  t.after(() => releases.forEach((r) => r()));
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    () => {
      if (!holding) return undefined;
      held += 1;
      return new Promise<void>((r) => releases.push(r));
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-sigterm-hung-'));
  const file = join(dir, 'upd.yml');
  writeFileSync(
    file,
    `version: 1
name: Leased update
lease: { name: fleet, ttl: 10m }
steps:
  - id: upd
    uses: classes/update
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ...ceph.env, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const child = spawn(
    process.execPath,
    [CLI, 'run', file, '--store', ceph.storeUrl(prefix, proxy), '--journal', journal],
    { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.after(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  let ended = false;
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => ((ended = true), resolve(code))));
  const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === PATCH).length;
  await until(() => patches() === 1 || ended);
  assert.equal(ended, false, `the run ended before its write reached the server: ${out}`);
  const id = /^run: (\S+) in /m.exec(out)?.[1];
  assert.ok(id, out);

  // From now on the store answers nothing; then the CI system cancels the job.
  holding = true;
  child.kill('SIGTERM');
  const code = await closed;
  assert.equal(code, 143, out);
  assert.ok(held > 0, `the run sent the store nothing after SIGTERM: ${out}`);
  assert.match(out, /the store's calls were cut \S+ after SIGTERM/);
  assert.doesNotMatch(out, /TimeoutError|timed out/i);
  // The journal stopped at the first record the store did not take (the PATCH's cut answer): its
  // local file holds it, the store's copy the records before it; no finish (a run its store
  // stopped writes none), the call in doubt for a resume or verify.
  assert.match(
    out,
    /JOURNAL_WRITE_FAILED: .*cannot write runs\/\S+\/journal\/[0-9]{8} .*the store's calls were cut 5s after SIGTERM/,
  );
  assert.match(out, /lease fleet could not be released \(.*cut 5s after SIGTERM.*\): it expires by itself at/);
  const local = readFileSync(journal, 'utf8');
  assert.match(local.trim().split('\n').at(-1)!, /^\{"t":"answer",.*"error":"API_ABORTED"/);
  assert.doesNotMatch(local, /"t":"finish"/);
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  const stored = await readStoredJournal(store, id);
  assert.ok(
    stored.text.length > 0 && local.startsWith(stored.text) && stored.text.length < local.length,
    'the store holds what it took, the records before the one it did not',
  );
  assert.doesNotMatch(stored.text, /"t":"finish"/);
});
