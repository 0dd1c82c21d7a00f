// A shard worker running six sites at once over a directory store on a share that stops answering
// (a real one: a FUSE file system whose daemon answers nothing, mounted over the store's .tmp/
// while the sites' calls are held at the server), sent SIGTERM: each site's next record waits on
// the share in Node's thread pool, more calls than the pool has threads (4), so nothing else that
// needs the pool (the worker's reports) could run. The store's calls are cut after `?grace=`, and
// the worker ends by its signal, status 143 as a shell reads it, saying so: at once when the held
// calls fill the pool. Before, it never ended: its 4 pool threads held (one waiting on FUSE, three
// on the lock of the directory that one was opening), its main thread idle, the reports it was to
// write waiting for a thread. The built CLI as a process, a real SIGTERM; no bound on time: the
// hang holds until the test ends.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { hangShareAt, hungShareSupported } from '../helpers/hung-share.ts';
import { until } from '../helpers/timing.ts';
import { shardFleet } from './helpers.ts';

const shellStatus = (code: number | null, signal: NodeJS.Signals | null) =>
  code ?? 128 + constants.signals[signal as keyof typeof constants.signals];

test(
  "SIGTERM to a shard worker of six sites at once whose directory store's share hangs: its store calls are cut after their grace, status 143, however many the share holds",
  { skip: !hungShareSupported && 'needs root with CAP_SYS_ADMIN and /dev/fuse (to mount a share that hangs)' },
  async (t) => {
    const releases: (() => void)[] = [];
    t.after(() => releases.forEach((r) => r()));
    let siteCalls = 0;
    const f = await shardFleet(t, 6, '  over: site\n  waves: [rest]\n  max-parallel: 6', {
      before: (method) => {
        if (method === 'GET') return;
        siteCalls += 1;
        return new Promise<void>((r) => releases.push(r));
      },
    });
    const run = (await f.shard('--shards', '1')).run;
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-worker-hung-share-'));
    const child = spawn(
      process.execPath,
      [CLI, 'run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--report-json', join(dir, 'r.json')],
      { env: cleanEnv({ ...f.env, TMPDIR: dir }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    t.after(() => void child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    let ended = false;
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (code, signal) => ((ended = true), resolve([code, signal]))),
    );
    await until(() => siteCalls === 6 || ended);
    assert.equal(ended, false, `the worker ended before its sites' writes reached the server: ${out}`);
    await hangShareAt(t, join(f.store, '.tmp'));
    child.kill('SIGTERM');
    const [code, signal] = await closed;
    assert.equal(shellStatus(code, signal), 143, `${code} ${signal}: ${out}`);
    assert.match(out, /the store's calls were cut 5s after SIGTERM \(\?grace=\)/);
    assert.match(out, /still held by its file system/);
  },
);
