// Installing Debian packages the way the project's own commands do (the test tools, the release
// build): with apt-get as root, or through sudo when it asks no password (a CI runner's);
// otherwise nothing is installed and the caller says the command to run.
import { spawnSync } from 'node:child_process';

/** Whether `bin` is a command on the PATH of `env`. */
export const onPath = (bin, env = process.env) =>
  spawnSync('sh', ['-c', 'command -v "$1"', 'sh', bin], { stdio: 'ignore', env }).status === 0;

/** Whether this process can install packages without asking anyone. */
export function canInstall() {
  if (!onPath('apt-get')) return false;
  return process.getuid?.() === 0 || spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs `packages`, and `lean` (packages whose recommended packages are not wanted: Ceph's
 * daemons would pull in a dashboard's worth) with --no-install-recommends; false when apt-get
 * failed (its own messages went to stderr).
 */
export function aptInstall(packages, who, lean = []) {
  const sudo = process.getuid?.() !== 0;
  process.stderr.write(`${who}: installing ${[...packages, ...lean].join(', ')} (Debian packages)\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) =>
    sudo
      ? spawnSync('sudo', ['-n', '-E', 'apt-get', ...args], { stdio: ['ignore', 'ignore', 'inherit'], env })
      : spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  run(['update', '-qq']);
  if (packages.length > 0 && run(['install', '-y', '-qq', ...packages]).status !== 0) return false;
  return lean.length === 0 || run(['install', '-y', '-qq', '--no-install-recommends', ...lean]).status === 0;
}
