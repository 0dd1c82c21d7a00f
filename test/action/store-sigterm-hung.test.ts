// The action (its bundle, as the runner starts it) keeping its run in an S3 store that stops
// answering (Ceph's RADOS Gateway behind a proxy that holds every request from a moment on), sent
// SIGTERM as a cancelled job is: as the CLI's, its store calls are given `?grace=` (5s by default)
// after the signal, then cut, and it exits 143, saying so. So too over a directory store on a
// share that stops answering (a FUSE mount whose daemon answers nothing, over the store's .tmp/):
// the call the share holds cannot be cancelled, and the action ends by its signal, status 143 as
// the runner reads it. No bound on time: the holds last until the test ends, so an action that
// exits did so by cutting its calls.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { runActionBundle } from '../helpers/action.ts';
import { hangShareAt, hungShareSupported } from '../helpers/hung-share.ts';
import { startCeph } from '../helpers/ceph.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const PATCH = '/api/classes/v1/classes/12/entities/2001';
const PIPELINE = `version: 1
name: Update
steps:
  - id: upd
    uses: classes/update
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`;

test('SIGTERM to the action whose S3 store stopped answering: its store calls are cut after their grace, exit 143', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
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
  const run = await runActionBundle(t, {
    action: '.',
    files: { 'upd.yml': PIPELINE },
    inputs: {
      pipeline: 'upd.yml',
      url,
      username: 'admin',
      password: 'admin',
      store: ceph.storeUrl(`action-sigterm-hung-${Date.now()}`, proxy),
    },
    env: ceph.env,
    onSpawn: (child) => {
      // Once the write reached the server (and hangs there), the store stops answering; then the job is cancelled.
      const poll = setInterval(() => {
        if (emulator.requests.some((r) => r.method === 'PATCH' && r.path === PATCH)) {
          clearInterval(poll);
          holding = true;
          child.kill('SIGTERM');
        }
      }, 20);
      child.on('exit', () => clearInterval(poll));
    },
  });
  const said = run.stdout + run.stderr;
  assert.equal(run.code, 143, said);
  assert.ok(held > 0, `the action sent the store nothing after SIGTERM: ${said}`);
  assert.match(said, /the store's calls were cut 5s after SIGTERM \(\?grace=\)/);
  assert.doesNotMatch(said, /TimeoutError|timed out/i);
});

test(
  "SIGTERM to the action whose directory store's share stopped answering: its store calls are cut after their grace, status 143",
  { skip: !hungShareSupported && 'needs root with CAP_SYS_ADMIN and /dev/fuse (to mount a share that hangs)' },
  async (t) => {
    const { url, emulator } = await startEmulator(t);
    emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
    const root = join(mkdtempSync(join(tmpdir(), 'enginectl-action-hung-share-')), 'store');
    mkdirSync(root);
    let signal: NodeJS.Signals | null = null;
    const run = await runActionBundle(t, {
      action: '.',
      files: { 'upd.yml': PIPELINE },
      inputs: { pipeline: 'upd.yml', url, username: 'admin', password: 'admin', store: pathToFileURL(root).href },
      onSpawn: (child) => {
        child.on('close', (_code, s) => (signal = s));
        const poll = setInterval(() => {
          if (emulator.requests.some((r) => r.method === 'PATCH' && r.path === PATCH)) {
            clearInterval(poll);
            void hangShareAt(t, join(root, '.tmp')).then(() => child.kill('SIGTERM'));
          }
        }, 20);
        child.on('exit', () => clearInterval(poll));
      },
    });
    const said = run.stdout + run.stderr;
    // Ended by its signal, a call still held: the runner, as a shell, reads 128 + 15.
    assert.deepEqual([run.code, signal], [null, 'SIGTERM'], said);
    assert.match(said, /the store's calls were cut 5s after SIGTERM \(\?grace=\)/);
    assert.match(said, /still held by its file system, which cannot be cancelled: ending by SIGTERM/);
  },
);
