// `npm run release:build`, run as the release runs it, and each file it publishes run before it
// is published, on the exact bytes SHA256SUMS names: the Linux executables natively and under
// qemu (arm64), the Windows one as far as this machine can, the OCI image as docker, GitLab and
// Jenkins start it, the npm package installed.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { VERSION } from '../../src/version.ts';
import { ROOT } from '../helpers/action.ts';
import { RELEASE_CACHE, releaseModules } from '../helpers/release.ts';
import { readImage, runImage, type OciImage } from '../helpers/oci.ts';

const out = join(mkdtempSync(join(tmpdir(), 'enginectl-release-')), 'release');
const QEMU = ['qemu-aarch64-static', '-L', '/usr/aarch64-linux-gnu'];
let build: ReturnType<typeof spawnSync>;

/** The commit time the release's files carry (release/build.mjs takes it from SOURCE_DATE_EPOCH). */
const EPOCH = 1795600000;

before(() => {
  build = spawnSync(process.execPath, ['release/build.mjs', '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SOURCE_DATE_EPOCH: String(EPOCH) },
  });
});

/** The machine an ELF or PE file is built for, from its header. */
function machine(file: string): string {
  const b = readFileSync(file).subarray(0, 4096);
  if (b.subarray(0, 4).toString('latin1') === '\x7fELF')
    return ({ 0x3e: 'x86-64', 0xb7: 'aarch64' } as Record<number, string>)[b.readUInt16LE(18)] ?? 'other ELF';
  if (b.subarray(0, 2).toString('latin1') === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    if (b.subarray(pe, pe + 4).toString('latin1') === 'PE\0\0')
      return b.readUInt16LE(pe + 4) === 0x8664 ? 'PE x86-64' : 'other PE';
  }
  return 'unknown';
}

const smoke = (file: string, runner: string[] = []) =>
  spawnSync('bash', ['release/smoke.sh', join(out, file), ...runner], { cwd: ROOT, encoding: 'utf8' });

/** The processes still running a file of this release (the smoke test's emulator must not be one). */
function leftOver(): string[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return '';
      }
    })
    .filter((cmd) => cmd.includes(out));
}

test('release:build writes the six files, SHA256SUMS last over the other five, as sha256sum -c reads it', () => {
  assert.equal(build.status, 0, String(build.stderr));
  assert.deepEqual(readdirSync(out).sort(), [
    'SHA256SUMS',
    `enginectl-${VERSION}.tgz`,
    'enginectl-linux-arm64',
    'enginectl-linux-x64',
    'enginectl-oci.tar',
    'enginectl-windows-x64.exe',
  ]);
  assert.ok(!existsSync(`${out}.partial`), 'no staging directory is left');
  const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8');
  assert.equal(sums.trim().split('\n').length, 5);
  const checked = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
  assert.equal(checked.match(/: OK$/gm)?.length, 5, checked);
  // It said what it verified before publishing.
  assert.match(
    String(build.stderr),
    /enginectl-linux-x64 --version, a broken file, plan, a run against an emulator process, the demo: ok/,
  );
  assert.match(
    String(build.stderr),
    /enginectl-linux-arm64 --version, a broken file, plan, a run against an emulator process, the demo: ok/,
  );
  assert.deepEqual(leftOver(), [], 'the smoke tests stopped their emulator processes');
});

test('the linux-x64 executable passes the smoke test natively: --version, a broken file at its line, plan, a run against an emulator process, the demo', () => {
  const r = smoke('enginectl-linux-x64');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(leftOver(), [], 'the emulator process is stopped');
  const broken = spawnSync(join(out, 'enginectl-linux-x64'), ['validate', 'test/fixtures/mistakes/unknown-type.yml'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /unknown-type\.yml:\d+:\d+/);
  assert.doesNotMatch(broken.stderr, /\n\s+at /, 'no stack trace');
});

test('the linux-arm64 executable passes the same smoke test under qemu', () => {
  const r = smoke('enginectl-linux-arm64', QEMU);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(leftOver(), [], 'the emulator process is stopped');
  assert.equal(machine(join(out, 'enginectl-linux-arm64')), 'aarch64');
  assert.equal(machine(join(out, 'enginectl-linux-x64')), 'x86-64');
});

test('the Windows executable is a PE file holding the CLI, honestly unsigned (Wine cannot run Node 24 here)', () => {
  // Debian's Wine 8 cannot start Node 24's Windows runtime (V8 cannot reserve its code pointer
  // table: SegmentedTable::InitializeTable), so it is not run here: release.yml runs the smoke
  // test on the windows runner before anything is published. Checked here: what it is made of.
  const exe = readFileSync(join(out, 'enginectl-windows-x64.exe'));
  assert.equal(machine(join(out, 'enginectl-windows-x64.exe')), 'PE x86-64');
  const linux = readFileSync(join(out, 'enginectl-linux-x64'));
  // The same CLI in both: its own messages are in each.
  for (const needle of ['unknown command', 'listening on'])
    assert.ok(exe.includes(needle) && linux.includes(needle), needle);
  assert.ok(
    exe.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1'),
    'the SEA fuse is flipped: the blob runs at start',
  );
  const verify = spawnSync('osslsigncode', ['verify', '-in', join(out, 'enginectl-windows-x64.exe')], {
    encoding: 'utf8',
  });
  assert.match(
    verify.stdout + verify.stderr,
    /No signature found/,
    'the runtime signature the injection broke is removed, not left broken',
  );
});

test('with a signing certificate configured, the Windows executable is signed by it (osslsigncode, as release.yml does)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-signing-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'key.pem',
    '-out',
    'cert.pem',
    '-days',
    '2',
    '-subj',
    '/CN=enginectl release test',
  );
  openssl(
    'pkcs12',
    '-export',
    '-inkey',
    'key.pem',
    '-in',
    'cert.pem',
    '-out',
    'signing.pfx',
    '-passout',
    'pass:s3cret-pass',
  );
  const exe = join(dir, 'enginectl-windows-x64.exe');
  copyFileSync(join(out, 'enginectl-windows-x64.exe'), exe);
  const { signWindows } = await releaseModules();
  signWindows(exe, { pfx: join(dir, 'signing.pfx'), password: 's3cret-pass' });
  const verify = spawnSync('osslsigncode', ['verify', '-in', exe], { encoding: 'utf8' });
  assert.match(verify.stdout + verify.stderr, /Subject: \/CN=enginectl release test/);
  assert.equal(machine(exe), 'PE x86-64');
});

test('the release is reproducible: the same sources, built elsewhere, give the same executable and the same image', async () => {
  const sha = (file: string) => execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0];
  const runtimes = JSON.parse(readFileSync(join(ROOT, 'release/runtimes.json'), 'utf8')) as unknown;
  const cache = RELEASE_CACHE;
  const work = mkdtempSync(join(tmpdir(), 'enginectl-rebuild-'));
  const { runtimeBinary, seaBlob, inject, buildImage } = await releaseModules();
  const linux = runtimeBinary(runtimes, 'linux-x64', cache, work);
  const exe = inject(linux, await seaBlob(linux, work), join(work, 'enginectl-linux-x64'));
  assert.equal(sha(exe), sha(join(out, 'enginectl-linux-x64')));
  const tar = buildImage({
    executables: { amd64: join(out, 'enginectl-linux-x64'), arm64: join(out, 'enginectl-linux-arm64') },
    version: VERSION,
    work,
    cache,
    out: join(work, 'oci.tar'),
    epoch: EPOCH,
  });
  assert.equal(sha(tar), sha(join(out, 'enginectl-oci.tar')));
});

let image: OciImage | undefined;
const oci = () => (image ??= readImage(join(out, 'enginectl-oci.tar')));

test('the image: one index for the version, holding linux/amd64 and linux/arm64, a non-root user, /work, the entrypoint', () => {
  const { index, platforms } = oci();
  assert.equal(index.manifests.length, 1);
  assert.equal(index.manifests[0]!.annotations?.['org.opencontainers.image.ref.name'], VERSION);
  assert.deepEqual(
    platforms.map((p) => `${p.platform?.os}/${p.platform?.architecture}`),
    ['linux/amd64', 'linux/arm64'],
  );
  const { config } = oci().unpack('amd64');
  assert.equal(config.architecture, 'amd64');
  assert.equal(config.config.User, '10001:10001');
  assert.equal(config.config.WorkingDir, '/work');
  assert.deepEqual(config.config.Entrypoint, ['/usr/local/bin/enginectl-entrypoint']);
});

test('the amd64 image runs as `docker run IMAGE validate`, as a GitLab job script (sh -c) and as a Jenkins agent (cat), as its non-root user', () => {
  const { config, rootfs } = oci().unpack('amd64');
  copyFileSync(join(ROOT, 'pipelines/demo.yml'), join(rootfs, 'work/demo.yml'));
  const validate = runImage(rootfs, config, ['validate', 'demo.yml']);
  assert.equal(validate.status, 0, validate.stderr);
  assert.match(validate.stdout, /demo\.yml: valid/);
  const version = runImage(rootfs, config, ['--version']);
  assert.equal(version.stdout, `${VERSION}\n`);
  // GitLab's docker executor passes the job's script to the entrypoint through the image's shell.
  const job = runImage(rootfs, config, [
    'sh',
    '-c',
    'id -u && enginectl run demo.yml --emulator --junit junit.xml && test -s junit.xml && echo job-done',
  ]);
  assert.equal(job.status, 0, job.stdout + job.stderr);
  assert.match(job.stdout, /^10001$/m);
  assert.match(job.stdout, /pipeline "Release 2026\.11 \(demo\)": success/);
  assert.match(job.stdout, /job-done/);
  // Jenkins' docker agent starts the image with `cat` and runs its steps beside it.
  const cat = runImage(rootfs, config, ['cat', '/etc/os-release']);
  assert.equal(cat.status, 0, cat.stderr);
  assert.match(cat.stdout, /ID=enginectl/);
  // HTTPS clients in the image find the CA bundle update-ca-certificates would have written.
  assert.match(readFileSync(join(rootfs, 'etc/ssl/certs/ca-certificates.crt'), 'utf8'), /-----BEGIN CERTIFICATE-----/);
});

test("the image trusts a CA added to its bundle (as a runner mounts its company's): enginectl in it reaches an HTTPS server that CA signed", async (t) => {
  const { config, rootfs } = oci().unpack('amd64');
  const tls = join(ROOT, 'test/fixtures/tls');
  // The server runs in a process of its own: runImage waits for the image's process synchronously.
  const server = spawn(
    process.execPath,
    [
      '-e',
      `const https = require('node:https'); const fs = require('node:fs');
       const s = https.createServer({ key: fs.readFileSync(process.argv[1]), cert: fs.readFileSync(process.argv[2]) }, (q, a) => (a.writeHead(200, { 'content-type': 'application/json' }), a.end('[]')));
       s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
      join(tls, 'server-key.pem'),
      join(tls, 'server-cert.pem'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.after(() => server.kill());
  const port = await new Promise<string>((resolve) =>
    server.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())),
  );
  const bundle = join(rootfs, 'etc/ssl/certs/ca-certificates.crt');
  const original = readFileSync(bundle);
  t.after(() => writeFileSync(bundle, original));
  appendFileSync(bundle, readFileSync(join(tls, 'server-cert.pem')));
  const r = runImage(rootfs, config, [
    'sh',
    '-c',
    `ENGINE_URL=https://127.0.0.1:${port} ENGINE_USERNAME=admin ENGINE_PASSWORD=admin enginectl api GET /api/monitoring/v1/engines`,
  ]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('the arm64 image holds an arm64 root file system whose libraries run the executable (under qemu)', () => {
  const { config, rootfs } = oci().unpack('arm64');
  assert.equal(config.architecture, 'arm64');
  const r = spawnSync(
    QEMU[0]!,
    ['-L', rootfs, join(rootfs, 'usr/local/bin/enginectl'), 'run', 'pipelines/demo.yml', '--emulator'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /pipeline "Release 2026\.11 \(demo\)": success/);
  assert.equal(machine(join(rootfs, 'bin/busybox')), 'aarch64');
});

test('the npm package of the release installs and runs its bin', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'enginectl-release-npm-'));
  execFileSync(
    'npm',
    [
      'install',
      '-g',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      join(out, `enginectl-${VERSION}.tgz`),
    ],
    { stdio: 'pipe' },
  );
  assert.equal(execFileSync(join(prefix, 'bin', 'enginectl'), ['--version'], { encoding: 'utf8' }), `${VERSION}\n`);
});
