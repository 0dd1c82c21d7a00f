// A share that stops answering, for real: a FUSE file system mounted over a directory whose
// daemon never answers (it holds /dev/fuse open and reads nothing), so every call that reaches it
// (an open, a stat, a link) waits in the kernel, as on an NFS server that went away (hard mount):
// only a fatal signal ends it. Mounted over a directory of a store while a run goes on, it holds
// the call that reaches it, in Node's thread pool, until the test ends; then the daemon is killed
// (the kernel fails the waiting calls, ENOTCONN) and the mount taken away. Needs root with
// CAP_SYS_ADMIN and /dev/fuse (a container started with them): `hungShareSupported` says whether.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

const MOUNT =
  'exec 3<>/dev/fuse && mount -i -t fuse -o fd=3,rootmode=40000,user_id=0,group_id=0 enginectl-hung "$1" && echo mounted && exec cat';

const mounted = (dir: string) =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[1] === dir);

/** Mounts a share that never answers over `dir` (made if missing); taken away when the test ends. */
export async function hangShareAt(t: TestContext, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  // The daemon: a shell holding /dev/fuse (fd 3), then `cat` waiting on its stdin with it, answering nothing.
  const daemon = spawn('sh', ['-c', MOUNT, 'sh', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  daemon.stderr.on('data', (c) => (said += c));
  t.after(() => {
    daemon.kill('SIGKILL');
    spawnSync('umount', ['-l', dir]);
  });
  await new Promise<void>((resolve, reject) => {
    daemon.stdout.once('data', () => resolve());
    daemon.once('exit', (code) => reject(new Error(`cannot mount a hung share at ${dir} (${code}): ${said}`)));
  });
  if (!mounted(dir)) throw new Error(`the hung share is not mounted at ${dir}`);
}

/** Whether this machine lets a test mount a FUSE file system (root, CAP_SYS_ADMIN, /dev/fuse, mount(8)). */
export const hungShareSupported: boolean = (() => {
  if (process.getuid?.() !== 0 || !existsSync('/dev/fuse')) return false;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fuse-check-'));
  const r = spawnSync('sh', ['-c', `${MOUNT.replace('exec cat', 'umount -l "$1"')}`, 'sh', dir], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('mounted');
})();
