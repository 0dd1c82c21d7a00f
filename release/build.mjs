// `npm run release:build [-- --out DIR] [--no-install]`: everything a release publishes, into
// dist/release/ (missing Debian tools are installed when this process can, unless --no-install):
// the executables for linux-x64, linux-arm64 and windows-x64 (one SEA blob, the pinned Node 24
// runtimes of runtimes.json), the OCI image for linux/amd64 and linux/arm64, the npm package as
// `npm pack` makes it, and SHA256SUMS over them. Built in DIR.partial and moved to DIR only once
// every file was built and the Linux executables passed the smoke test (the arm64 one under
// qemu), so a DIR that exists is complete; SHA256SUMS is written last, from the verified files.
// A failure says which file and what to do, leaves no DIR, and exits 1. The same commit (and the
// same Debian packages) builds the same bytes: every time inside is SOURCE_DATE_EPOCH or the commit's.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject, seaBlob, signWindows } from './executable.mjs';
import { buildImage } from './image.mjs';
import { ReleaseError } from './release-error.mjs';
import { runtimeBinary } from './runtime.mjs';
import { ARM64_SYSROOT, checkTools } from './tools.mjs';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const out = resolve(option('--out', join(ROOT, 'dist/release')));
const runtimesFile = resolve(option('--runtimes', join(ROOT, 'release/runtimes.json')));
const cache = resolve(option('--cache', join(ROOT, 'node_modules/.cache/enginectl-release')));
/** Where the SEA blob is kept too (release.yml builds the macOS executable from it on macOS). */
const keepBlob = option('--blob', undefined);
const say = (text) => process.stderr.write(`release: ${text}\n`);

/** The time every file's inside says: SOURCE_DATE_EPOCH, else the commit's time (reproducible builds). */
function sourceDateEpoch() {
  if (/^\d+$/.test(process.env.SOURCE_DATE_EPOCH ?? '')) return Number(process.env.SOURCE_DATE_EPOCH);
  const r = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 && /^\d+$/.test(r.stdout.trim()) ? Number(r.stdout.trim()) : 0;
}

function smoke(file, runner = []) {
  const r = spawnSync('bash', [join(ROOT, 'release/smoke.sh'), file, ...runner], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0)
    throw new ReleaseError(
      `${file.split('/').pop()} failed its smoke test: ${r.stderr.trim()}`,
      'nothing was published; fix the executable and build again',
    );
  say(r.stdout.trim().replace(/^smoke: \S+/, file.split('/').pop()));
}

async function main() {
  checkTools({ install: !process.argv.includes('--no-install') });
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const runtimes = JSON.parse(readFileSync(runtimesFile, 'utf8'));
  const stage = `${out}.partial`;
  const work = join(stage, '.work');
  rmSync(out, { recursive: true, force: true });
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const binaries = {};
    for (const platform of Object.keys(runtimes.platforms))
      binaries[platform] = runtimeBinary(runtimes, platform, cache, work);
    say(`Node ${runtimes.node} runtimes verified against ${runtimesFile.slice(ROOT.length + 1)}`);
    const blob = await seaBlob(binaries['linux-x64'], work);
    if (keepBlob) copyFileSync(blob, resolve(keepBlob));
    const files = {};
    for (const [platform, binary] of Object.entries(binaries)) {
      files[platform] = inject(binary, blob, join(stage, runtimes.platforms[platform].file), {
        windows: platform.startsWith('windows'),
      });
    }
    const pfx = process.env.WINDOWS_SIGNING_PFX;
    if (pfx)
      signWindows(files['windows-x64'], {
        pfx,
        password: process.env.WINDOWS_SIGNING_PASSWORD,
        timestamp: process.env.WINDOWS_SIGNING_TIMESTAMP,
      });
    say(
      `${runtimes.platforms['windows-x64'].file}: ${pfx ? `signed with ${pfx.split('/').pop()}` : 'unsigned (the runtime signature the injection breaks removed; WINDOWS_SIGNING_PFX not set)'}`,
    );
    smoke(files['linux-x64']);
    smoke(files['linux-arm64'], ['qemu-aarch64-static', '-L', ARM64_SYSROOT]);
    buildImage({
      executables: { amd64: files['linux-x64'], arm64: files['linux-arm64'] },
      version,
      work,
      cache,
      out: join(stage, 'enginectl-oci.tar'),
      epoch: sourceDateEpoch(),
    });
    say('enginectl-oci.tar: linux/amd64 and linux/arm64');
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', stage], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    renameSync(join(stage, packed[0].filename), join(stage, `enginectl-${version}.tgz`));
    rmSync(work, { recursive: true, force: true });
    const names = readdirSync(stage).sort();
    const sums = names
      .map(
        (name) =>
          `${createHash('sha256')
            .update(readFileSync(join(stage, name)))
            .digest('hex')}  ${name}\n`,
      )
      .join('');
    writeFileSync(join(stage, 'SHA256SUMS'), sums);
    renameSync(stage, out);
    say(`${out}: ${names.join(', ')}, SHA256SUMS`);
  } catch (error) {
    rmSync(stage, { recursive: true, force: true });
    throw error;
  }
}

main().catch((error) => {
  if (!(error instanceof ReleaseError))
    error = new ReleaseError(error.message, 'this is a fault of the release build: report it with this message');
  process.stderr.write(`release:build: ${error.message}\n  hint: ${error.hint}\n`);
  process.exitCode = 1;
});
