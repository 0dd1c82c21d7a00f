// A Node runtime for one platform: the registry's node-<platform> tarball, fetched by npm (its
// registry, proxy and credentials) into a cache, checked against the integrity that
// runtimes.json pins before any byte of it is used, and its binary unpacked.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ReleaseError } from './release-error.mjs';

/** `sha512-<base64>`, as npm writes integrity. */
export function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** The verified tarball of `platform` (downloaded once into `cache`). */
export function runtimeTarball(runtimes, platform, cache) {
  const { package: name, integrity } = runtimes.platforms[platform];
  const spec = `${name}@${runtimes.node}`;
  const tarball = `${name}-${runtimes.node}.tgz`;
  mkdirSync(cache, { recursive: true });
  // Named by what it must hold: another pin never reuses it.
  const cached = join(cache, `${createHash('sha256').update(integrity).digest('hex').slice(0, 16)}-${tarball}`);
  if (existsSync(cached) && integrityOf(cached) === integrity) return cached;
  const dir = mkdtempSync(join(cache, 'download-'));
  try {
    try {
      execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (error) {
      throw new ReleaseError(
        `could not download ${spec} from the npm registry: ${String(error.stderr ?? error.message)
          .trim()
          .split('\n')
          .pop()}`,
        'check the network and the npm registry settings (npm config get registry), then build again',
      );
    }
    const got = integrityOf(join(dir, tarball));
    if (got !== integrity) {
      throw new ReleaseError(
        `${tarball}: its integrity is ${got}, but release/runtimes.json pins ${integrity} for ${platform}`,
        'the registry served other bytes than the runtime this release pins: nothing was built from them. If the version was changed on purpose, pin its integrity too (npm view ' +
          `${spec} dist.integrity)`,
      );
    }
    renameSync(join(dir, tarball), cached);
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Unpacks the runtime binary of `platform` into `dir`; its path. */
export function runtimeBinary(runtimes, platform, cache, dir) {
  const tarball = runtimeTarball(runtimes, platform, cache);
  const { binary } = runtimes.platforms[platform];
  const into = join(dir, platform);
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into, binary], { stdio: ['ignore', 'ignore', 'pipe'] });
  return join(into, binary);
}
