// Debian packages for the image's root file system, per architecture: downloaded with apt-get
// from Debian 12 (bookworm, with its security updates) through a private apt state and sources
// list, so neither the host's own sources (an Ubuntu runner's) nor its package state are used or
// changed; each verified by apt against Debian's archive keyring, and unpacked with dpkg-deb.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReleaseError } from './release-error.mjs';

export const DEBIAN_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

const SOURCES = (keyring) =>
  ['bookworm', 'bookworm-updates']
    .map((suite) => `deb [signed-by=${keyring}] http://deb.debian.org/debian ${suite} main\n`)
    .join('') + `deb [signed-by=${keyring}] http://deb.debian.org/debian-security bookworm-security main\n`;

function apt(state, arch, args) {
  const options = [
    `APT::Architecture=${arch}`,
    `APT::Architectures::=${arch}`,
    `Dir::State=${state}`,
    `Dir::State::status=${join(state, 'status')}`,
    `Dir::Cache=${join(state, 'cache')}`,
    `Dir::Etc::SourceList=${join(state, 'sources.list')}`,
    `Dir::Etc::SourceParts=${join(state, 'sources.list.d')}`,
    'APT::Sandbox::User=root',
    'Debug::NoLocking=1',
  ].flatMap((o) => ['-o', o]);
  try {
    return execFileSync('apt-get', [...options, '-qq', ...args], {
      cwd: join(state, 'debs'),
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    throw new ReleaseError(
      `apt-get ${args[0]} (${arch}) failed: ${String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .slice(-2)
        .join(' ')}`,
      'check that deb.debian.org is reachable from this machine',
    );
  }
}

/** Downloads `names` for `arch` into `cache`/debian-ARCH/debs; their paths. */
export function debianPackages(arch, names, cache) {
  const state = join(cache, `debian-${arch}`);
  for (const dir of ['debs', 'lists/partial', 'cache/archives/partial', 'sources.list.d'])
    mkdirSync(join(state, dir), { recursive: true });
  writeFileSync(join(state, 'sources.list'), SOURCES(DEBIAN_KEYRING));
  if (!existsSync(join(state, 'status'))) writeFileSync(join(state, 'status'), '');
  apt(state, arch, ['update']);
  // Only what this download asks for (an earlier one may have left older versions).
  const debs = join(state, 'debs');
  for (const file of readdirSync(debs)) rmSync(join(debs, file), { force: true });
  apt(state, arch, ['download', ...names]);
  const files = readdirSync(debs).map((f) => join(debs, f));
  for (const name of names)
    if (!files.some((f) => f.split('/').pop().startsWith(`${name}_`)))
      throw new ReleaseError(`apt-get download (${arch}) gave no ${name}`, 'check the Debian mirror');
  return files;
}

/** Unpacks the package files (no maintainer scripts run) into `root`. */
export function unpackInto(debs, root) {
  for (const deb of debs) execFileSync('dpkg-deb', ['-x', deb, root], { stdio: ['ignore', 'ignore', 'pipe'] });
}
