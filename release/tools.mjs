// The host tools a release build needs, each with the Debian package that gives it: a missing
// one is installed when this process can (root, or a password-less sudo), else it stops the build
// before anything is downloaded or written, naming the package to install.
import { existsSync } from 'node:fs';
import { DEBIAN_KEYRING } from './debian.mjs';
import { aptInstall, canInstall, onPath } from '../scripts/apt-install.mjs';
import { ReleaseError } from './release-error.mjs';

/** What the build uses, and for what (said when it is missing). */
export const TOOLS = [
  { bin: 'tar', apt: 'tar', for: 'unpacking the Node runtimes' },
  { bin: 'osslsigncode', apt: 'osslsigncode', for: 'removing the Windows runtime signature that the injection breaks' },
  { bin: 'umoci', apt: 'umoci', for: 'building the OCI image' },
  { bin: 'apt-get', apt: 'apt', for: "downloading the image's Debian packages" },
  { bin: 'dpkg-deb', apt: 'dpkg', for: "unpacking the image's Debian packages" },
  { file: DEBIAN_KEYRING, apt: 'debian-archive-keyring', for: "verifying the image's Debian packages" },
  {
    bin: 'qemu-aarch64-static',
    apt: 'qemu-user-static',
    for: 'running the linux-arm64 executable before it is published',
  },
  {
    file: '/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1',
    apt: 'libc6-arm64-cross',
    for: 'running the linux-arm64 executable under qemu',
  },
  {
    file: '/usr/aarch64-linux-gnu/lib/libstdc++.so.6',
    apt: 'libstdc++6-arm64-cross',
    for: 'running the linux-arm64 executable under qemu',
  },
];

/** Where qemu finds the arm64 libraries (the cross packages above). */
export const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

const missingTools = (env) => TOOLS.filter((t) => (t.bin ? !onPath(t.bin, env) : !existsSync(t.file)));

/**
 * Installs the missing tools when this process can (as root, or through a password-less sudo);
 * otherwise throws a ReleaseError naming every missing tool and its Debian package.
 */
export function checkTools({ install = true, env = process.env } = {}) {
  let missing = missingTools(env);
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((t) => t.apt))];
  if (install && canInstall() && aptInstall(packages, 'release')) missing = missingTools(env);
  if (missing.length === 0) return;
  throw new ReleaseError(
    `missing ${missing.map((t) => `${t.bin ?? t.file} (${t.for})`).join('; ')}`,
    `install the Debian package${packages.length > 1 ? 's' : ''}: sudo apt-get install ${[...new Set(missing.map((t) => t.apt))].join(' ')}`,
  );
}
