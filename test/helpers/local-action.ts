// GitHub's own local runner of JavaScript actions (@github/local-action, a devDependency), as a
// process: not spawnSync, the emulator answers from the test's process.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './action.ts';

/** Runs the tool as a process (not spawnSync: the emulator answers from this process). */
export function localAction(
  actionDir: string,
  entry: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-local-action-'));
  const envFile = join(dir, '.env');
  writeFileSync(
    envFile,
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  const bin = join(ROOT, 'node_modules', '.bin', 'local-action');
  // The tool stubs @actions/core at the path `npm ls` gives (node_modules/@actions/core/lib/core.js
  // under this checkout), and Node's loader loads a module at its real path: with node_modules a
  // link to another checkout's (a git worktree's), the two differ, the real @actions/core ran
  // unstubbed (its outputs printed as ::set-output) and the tool said "No outputs were set!".
  // Links kept as they are, the path loaded is the path stubbed; without a link it changes nothing.
  const child = spawn(bin, ['run', actionDir, entry, envFile], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_OPTIONS: '--preserve-symlinks' },
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}
