// An OCI image tar as a container runtime reads it: index.json, the image index of the version,
// each platform's manifest and config, its layers unpacked into a root file system; and a run of
// the image the way docker and the CI executors start it (the config's user, working directory,
// environment, entrypoint and command), in a chroot: no container engine runs in this sandbox.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { architecture: string; os: string; variant?: string };
  annotations?: Record<string, string>;
}

export interface ImageConfig {
  architecture: string;
  os: string;
  config: { User?: string; WorkingDir?: string; Env?: string[]; Entrypoint?: string[]; Cmd?: string[] };
}

export interface OciImage {
  /** The top index.json. */
  index: { manifests: Descriptor[] };
  /** The image index it names, whose manifests are the platforms. */
  platforms: Descriptor[];
  blob(digest: string): Buffer;
  /** A platform's config and its layers unpacked into a directory of its own (once). */
  unpack(architecture: string): { config: ImageConfig; rootfs: string };
}

export function readImage(tar: string): OciImage {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-oci-'));
  execFileSync('tar', ['-xf', tar, '-C', dir]);
  const blob = (digest: string) => readFileSync(join(dir, 'blobs', ...digest.split(':')));
  const json = <T>(digest: string) => JSON.parse(blob(digest).toString('utf8')) as T;
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as OciImage['index'];
  const platforms = json<{ manifests: Descriptor[] }>(index.manifests[0]!.digest).manifests;
  const unpacked = new Map<string, { config: ImageConfig; rootfs: string }>();
  return {
    index,
    platforms,
    blob,
    unpack(architecture) {
      if (unpacked.has(architecture)) return unpacked.get(architecture)!;
      const manifest = json<{ config: Descriptor; layers: Descriptor[] }>(
        platforms.find((p) => p.platform?.architecture === architecture)!.digest,
      );
      const rootfs = join(dir, `rootfs-${architecture}`);
      mkdirSync(rootfs);
      for (const layer of manifest.layers)
        execFileSync('tar', ['-xzf', join(dir, 'blobs', ...layer.digest.split(':')), '-C', rootfs]);
      unpacked.set(architecture, { config: json<ImageConfig>(manifest.config.digest), rootfs });
      return unpacked.get(architecture)!;
    },
  };
}

/**
 * Runs the image as `docker run IMAGE ...args` does (no args: the config's Cmd), with the
 * config's user, working directory and environment; or with `entrypoint: false`, `args` alone.
 */
export function runImage(rootfs: string, config: ImageConfig, args: string[], { entrypoint = true } = {}) {
  const c = config.config;
  const argv = entrypoint ? [...(c.Entrypoint ?? []), ...(args.length > 0 ? args : (c.Cmd ?? []))] : args;
  const env = Object.fromEntries((c.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  // chroot(8) starts in /: the working directory is entered by a shell of the image itself.
  const inner = ['/bin/sh', '-c', 'cd "$0" && exec "$@"', c.WorkingDir ?? '/', ...argv];
  const chroot = ['/usr/sbin/chroot', ...(c.User ? [`--userspec=${c.User}`] : []), rootfs, ...inner];
  // chroot needs root: as root, through a password-less sudo (a CI runner's), else a user namespace.
  const root = process.getuid?.() === 0;
  const command = root
    ? chroot
    : spawnSync('sudo', ['-n', 'true']).status === 0
      ? ['sudo', '-n', '--preserve-env', ...chroot]
      : ['unshare', '--map-root-user', ...chroot];
  return spawnSync(command[0]!, command.slice(1), { env: { ...env, HOME: '/home/enginectl' }, encoding: 'utf8' });
}
