// A worker of a sharded run that its store refuses for permissions (a directory of a share it may
// not write: EACCES) before it sends anything fails as run --store does on such a store
// (STORE_FAILED, exit 1), naming what it could not write and what to check: running the same
// index again meets the same refusal, so it is not told to (69, SHARD_UNAVAILABLE, is for a store
// that may answer next time). The worker runs from the source as another account of the store's
// group (run as root; skipped otherwise).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cleanEnv, nodeFor } from '../helpers/cli.ts';
import { BIN } from '../helpers/source-process.ts';
import { shardFleet } from './helpers.ts';

const GROUP = 2000;
const root = process.getuid?.() === 0;

/** The CLI from the source as `uid` of GROUP (umask 022); its exit, stdout and stderr. */
function as(uid: number, args: string[], env: Record<string, string>) {
  const child = spawn('/bin/sh', ['-c', 'umask 022; exec "$0" "$@"', nodeFor(uid), '--import', 'tsx', BIN, ...args], {
    uid,
    gid: GROUP,
    env: cleanEnv({ HOME: '/tmp', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

test(
  "a worker whose store refuses its first write for permissions (a directory of the share its account may not write) exits 1 with STORE_FAILED, naming the key and the directory and what to check, not 69 'run the same index again'",
  { skip: !root && 'needs root (another account)' },
  async (t) => {
    const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
    chmodSync(f.dir, 0o755);
    chmodSync(f.file, 0o644);
    chownSync(f.store, 0, GROUP);
    chmodSync(f.store, 0o2775);
    const { run } = await f.shard('--shards', '1');
    // The sharded run's directory, made its maker's alone (as an older enginectl made it, umask 022).
    const shardDir = join(f.store, 'shards', run);
    chmodSync(shardDir, 0o2755);
    const r = await as(1001, ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'], f.env);
    const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 1, said);
    assert.match(r.stderr, new RegExp(`cannot write shards/${run}/\\S+ \\(EACCES\\)`), said);
    assert.match(
      r.stderr,
      new RegExp(`hint: this runner may not write in ${shardDir}\\S*: check its owner and mode`),
      said,
    );
    assert.match(r.stderr, /running the same index again meets the same refusal/, said);
    assert.doesNotMatch(said, /SHARD_UNAVAILABLE|run the same index again/, said);
    assert.match(r.stderr, /code: STORE_FAILED\n$/, said);
    assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
    assert.equal(existsSync(join(f.store, 'runs')), false, 'no site run begun');
  },
);
