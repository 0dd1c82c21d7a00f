// The executables: the CLI bundled once as CommonJS, made into one SEA blob by the pinned Linux
// runtime (no start-up snapshot and no code cache, so the blob is the same for every platform),
// and injected with postject into each platform's runtime. The Windows runtime's Authenticode
// signature, which the injection would break, is removed first: the file is honestly unsigned
// (release.yml signs it when a certificate is configured).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { seaBundle } from '../build.mjs';
import { ReleaseError } from './release-error.mjs';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The SEA blob, made by `node` (the pinned linux-x64 runtime) in `work`; its path. */
export async function seaBlob(node, work) {
  const main = join(work, 'cli.cjs');
  await seaBundle(main);
  const blob = join(work, 'sea.blob');
  const config = join(work, 'sea-config.json');
  // Paths relative to `work`: the blob records its main script's path, and the same sources must
  // make the same blob wherever they are built.
  writeFileSync(
    config,
    JSON.stringify({
      main: 'cli.cjs',
      output: 'sea.blob',
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
    }),
  );
  try {
    execFileSync(node, ['--experimental-sea-config', 'sea-config.json'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    throw new ReleaseError(
      `the SEA blob could not be made by ${node}: ${String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .pop()}`,
      'the linux-x64 runtime of release/runtimes.json must run on this machine (a linux-x64 one)',
    );
  }
  return blob;
}

/** `runtime` with `blob` injected, written to `out` (executable). */
export function inject(runtime, blob, out, { windows = false } = {}) {
  const name = out.split('/').pop();
  if (windows) {
    try {
      execFileSync('osslsigncode', ['remove-signature', '-in', runtime, '-out', out], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (error) {
      throw new ReleaseError(
        `${name}: osslsigncode could not remove the runtime's signature: ${String(error.stderr ?? error.message).trim()}`,
        'check the runtime tarball and osslsigncode (Debian package osslsigncode)',
      );
    }
  } else {
    copyFileSync(runtime, out);
  }
  const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  try {
    execFileSync(process.execPath, [postject, out, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    throw new ReleaseError(
      `${name}: postject could not inject the CLI: ${String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .pop()}`,
      'run npm ci (postject is a dev dependency) and build again',
    );
  }
  chmodSync(out, 0o755);
  return out;
}

/**
 * Signs the Windows executable in place with the PFX certificate `pfx` (osslsigncode), when
 * one is configured; a timestamp server makes the signature outlive the certificate.
 */
export function signWindows(file, { pfx, password, timestamp }) {
  const signed = `${file}.signed`;
  // The password goes through a file of this user's only, never the command line (ps shows it).
  const pass = join(mkdtempSync(join(tmpdir(), 'enginectl-sign-')), 'password');
  writeFileSync(pass, password ?? '', { mode: 0o600 });
  try {
    execFileSync(
      'osslsigncode',
      [
        'sign',
        '-pkcs12',
        pfx,
        '-readpass',
        pass,
        '-n',
        'enginectl',
        '-i',
        'https://github.com/enginectl/enginectl',
        '-h',
        'sha256',
        ...(timestamp ? ['-ts', timestamp] : []),
        '-in',
        file,
        '-out',
        signed,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    throw new ReleaseError(
      `${file.split('/').pop()}: osslsigncode could not sign it with ${pfx}: ${String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .pop()}`,
      'check WINDOWS_SIGNING_PFX (a PKCS#12 file) and WINDOWS_SIGNING_PASSWORD; unset them to publish it unsigned',
    );
  } finally {
    rmSync(dirname(pass), { recursive: true, force: true });
  }
  renameSync(signed, file);
  chmodSync(file, 0o755);
}
