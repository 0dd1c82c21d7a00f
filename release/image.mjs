// The OCI image (enginectl-oci.tar): for linux/amd64 and linux/arm64, a root file system of
// Debian's C and C++ runtimes, CA certificates and busybox (a shell and its tools), the
// executable at /usr/local/bin/enginectl and the entrypoint, a non-root user and a working
// directory; built with umoci, no container engine. Its index.json names one image index (the
// version), which holds both platforms, as `docker buildx` writes a multi-platform image.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { debianPackages, unpackInto } from './debian.mjs';

const PACKAGES = ['libc6', 'libstdc++6', 'libgcc-s1', 'ca-certificates', 'busybox-static'];
const USER = 10001;
const INDEX = 'application/vnd.oci.image.index.v1+json';

const umoci = (args) => execFileSync('umoci', args, { stdio: ['ignore', 'ignore', 'pipe'] });

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The root file system of one platform, in `rootfs`, its Debian packages unpacked there. */
function fillRoot(rootfs, executable, applets, version) {
  for (const dir of ['usr/share/man', 'usr/share/info', 'usr/share/lintian'])
    rmSync(join(rootfs, dir), { recursive: true, force: true });
  // update-ca-certificates's bundle, which the package's maintainer script would have written.
  const mozilla = join(rootfs, 'usr/share/ca-certificates/mozilla');
  const certs = readdirSync(mozilla)
    .filter((f) => f.endsWith('.crt'))
    .sort();
  mkdirSync(join(rootfs, 'etc/ssl/certs'), { recursive: true });
  writeFileSync(
    join(rootfs, 'etc/ssl/certs/ca-certificates.crt'),
    certs.map((f) => readFileSync(join(mozilla, f), 'utf8')).join(''),
  );
  for (const applet of applets) symlinkSync('busybox', join(rootfs, 'bin', applet));
  mkdirSync(join(rootfs, 'usr/local/bin'), { recursive: true });
  copyFileSync(executable, join(rootfs, 'usr/local/bin/enginectl'));
  copyFileSync(new URL('./entrypoint.sh', import.meta.url), join(rootfs, 'usr/local/bin/enginectl-entrypoint'));
  for (const bin of ['enginectl', 'enginectl-entrypoint']) chmodSync(join(rootfs, 'usr/local/bin', bin), 0o755);
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    `root:x:0:0:root:/root:/bin/sh\nenginectl:x:${USER}:${USER}:enginectl:/home/enginectl:/bin/sh\n`,
  );
  writeFileSync(join(rootfs, 'etc/group'), `root:x:0:\nenginectl:x:${USER}:\n`);
  writeFileSync(
    join(rootfs, 'etc/os-release'),
    `NAME="enginectl"\nID=enginectl\nVERSION_ID=${version}\nID_LIKE=debian\n`,
  );
  // Writable by the user whatever uid the image is built by (a rootless build owns every file as root).
  for (const dir of ['work', 'tmp', 'home/enginectl', 'root']) {
    mkdirSync(join(rootfs, dir), { recursive: true });
    chmodSync(join(rootfs, dir), dir === 'root' ? 0o700 : 0o1777);
  }
}

/**
 * Builds the image from `executables` ({ amd64, arm64 }) into the tar `out`. Every time in it is
 * `epoch` (seconds; SOURCE_DATE_EPOCH, as release/build.mjs takes it from the commit), so the
 * same sources and packages make the same bytes: anyone can rebuild it and compare digests.
 */
export function buildImage({ executables, version, work, cache, out, epoch = 0 }) {
  const created = new Date(epoch * 1000).toISOString();
  const layout = join(work, 'oci');
  rmSync(layout, { recursive: true, force: true });
  umoci(['init', '--layout', layout]);
  let applets;
  for (const arch of ['amd64', 'arm64']) {
    const debs = debianPackages(arch, PACKAGES, cache);
    const bundle = join(work, `bundle-${arch}`);
    rmSync(bundle, { recursive: true, force: true });
    umoci(['new', '--image', `${layout}:${arch}`]);
    umoci(['unpack', '--rootless', '--image', `${layout}:${arch}`, bundle]);
    const rootfs = join(bundle, 'rootfs');
    unpackInto(debs, rootfs);
    // The applets of busybox, as the amd64 build (the first, this machine's) lists them: the same version for both.
    applets ??= execFileSync(join(rootfs, 'bin/busybox'), ['--list'], { encoding: 'utf8' })
      .split('\n')
      .filter((a) => a && a !== 'busybox');
    fillRoot(rootfs, executables[arch], applets, version);
    execFileSync('find', [rootfs, '-exec', 'touch', '-h', '-d', `@${epoch}`, '{}', '+']);
    umoci([
      'repack',
      '--history.created',
      created,
      '--history.created_by',
      'enginectl release/image.mjs',
      '--image',
      `${layout}:${arch}`,
      bundle,
    ]);
    umoci([
      'config',
      '--image',
      `${layout}:${arch}`,
      '--os',
      'linux',
      '--architecture',
      arch,
      '--created',
      created,
      '--no-history',
      '--config.user',
      `${USER}:${USER}`,
      '--config.workingdir',
      '/work',
      '--config.entrypoint',
      '/usr/local/bin/enginectl-entrypoint',
      '--config.cmd',
      '--help',
      '--config.env',
      'PATH=/usr/local/bin:/usr/bin:/bin',
      '--config.env',
      'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt',
      // Node reads no SSL_CERT_FILE (busybox's wget does): the bundle, a CA a runner adds to it
      // included, is given to enginectl as extra CAs, besides the ones Node carries.
      '--config.env',
      'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
      '--config.label',
      `org.opencontainers.image.version=${version}`,
      '--config.label',
      'org.opencontainers.image.title=enginectl',
    ]);
    rmSync(bundle, { recursive: true, force: true });
  }
  // The blobs of the intermediate steps (the empty image, the unconfigured one) go.
  umoci(['gc', '--layout', layout]);
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
  const manifests = index.manifests.map((m) => {
    const arch = m.annotations['org.opencontainers.image.ref.name'];
    return {
      mediaType: m.mediaType,
      digest: m.digest,
      size: m.size,
      platform: { architecture: arch, os: 'linux', ...(arch === 'arm64' ? { variant: 'v8' } : {}) },
    };
  });
  const nested = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: INDEX, manifests }));
  const digest = sha256(nested);
  writeFileSync(join(layout, 'blobs/sha256', digest), nested);
  const top = {
    schemaVersion: 2,
    mediaType: INDEX,
    manifests: [
      {
        mediaType: INDEX,
        digest: `sha256:${digest}`,
        size: nested.length,
        annotations: { 'org.opencontainers.image.ref.name': version },
      },
    ],
  };
  writeFileSync(join(layout, 'index.json'), JSON.stringify(top));
  execFileSync(
    'tar',
    ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-cf', out, '-C', layout, '.'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return out;
}
