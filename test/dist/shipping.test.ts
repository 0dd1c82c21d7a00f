// The ways enginectl ships beyond the repository: the single executable (Node SEA) that runs
// where no Node is installed, and the npm package whose bin works after a global install.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { VERSION } from '../../src/version.ts';
import { ROOT } from '../helpers/action.ts';
import { CLI, pathForNestedNpx, runCli } from '../helpers/cli.ts';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Why the single executable cannot be built here, or undefined when it can. */
function seaToolingMissing(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the executable is built for linux-x64; this is ${process.platform}-${process.arch}`;
  if (!existsSync(join(ROOT, 'node_modules/postject/dist/cli.js'))) return 'postject is not installed (npm ci installs it)';
  if (!readFileSync(process.execPath).includes(FUSE)) return `this Node binary (${process.execPath}) was built without SEA support (no ${FUSE})`;
  return undefined;
}

test('the single executable runs the demo pipeline on the embedded emulator with no node on PATH', (t) => {
  const missing = seaToolingMissing();
  if (missing) {
    t.skip(`SEA build tooling missing: ${missing}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-sea-'));
  const exe = join(dir, 'enginectl');
  execFileSync(process.execPath, [join(ROOT, 'build-exe.mjs'), exe], { cwd: ROOT, stdio: 'pipe' });
  // The single executable's first run: the demo with the command alone (no token variables).
  const env = { PATH: join(dir, 'empty-bin'), HOME: dir };
  mkdirSync(env.PATH);
  assert.throws(() => execFileSync('node', ['-e', '0'], { env }), /ENOENT/, 'no node on this PATH');
  assert.equal(execFileSync(exe, ['--version'], { env, encoding: 'utf8' }), `${VERSION}\n`);
  const out = execFileSync(exe, ['run', join(ROOT, 'pipelines/demo.yml'), '--emulator', '--report-json', join(dir, 'r.json')], { env, encoding: 'utf8', cwd: dir });
  // Reports say what really passed; the simulated waits are told apart (no time on this machine's speed).
  assert.match(out, /pipeline "Release 2026\.11 \(demo\)": success in \S+ \(10 step run\(s\): 10 succeeded\)/);
  assert.match(out, /\(simulated clock: waits took 32m of emulator time\)/);
  assert.equal((JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { outcome: string }).outcome, 'success');
  assert.doesNotMatch(out, /ExperimentalWarning|SEA/);
  // It starts from a snapshot made at build time (a pipeline validated then): what it says comes
  // from this run's file, arguments and environment, as dist/cli.mjs says it.
  const bad = join(dir, 'bad.yml');
  writeFileSync(bad, 'version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: severe }\n');
  for (const [args, envs] of [
    [['validate', bad], {}],
    [['api', 'GET', '/monitoring/alerts'], { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'secret' }],
  ] as const) {
    const fromExe = spawnSync(exe, args, { env: { ...env, ...envs }, encoding: 'utf8', cwd: dir });
    const fromCli = spawnSync(process.execPath, [CLI, ...args], { env: { ...env, ...envs }, encoding: 'utf8', cwd: dir });
    assert.notEqual(fromExe.status, 0, fromExe.stderr);
    assert.match(fromExe.stderr, /bad\.yml:4:22 steps\[0\]\.with\.fail-on|on http:\/\/127\.0\.0\.1:9: connection refused/);
    assert.equal(fromExe.status, fromCli.status);
    assert.equal(fromExe.stderr, fromCli.stderr);
    assert.equal(fromExe.stdout, fromCli.stdout);
  }
});

test('npm pack: the tarball installs globally, its bin `enginectl` runs with no dependency to fetch, and it validates and runs its own demo (pipelines/, as its README says) on Node 22 and 24', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-pack-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path);
  assert.ok(files.includes('dist/cli.mjs'));
  assert.ok(files.some((f) => /^dist\/cli\/validate-\w+\.mjs$/.test(f)), 'the chunks the entry imports');
  assert.ok(!files.some((f) => f.startsWith('dist/action') || f === 'dist/enginectl' || f.startsWith('src/')), `only what the CLI needs: ${files.join(', ')}`);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  assert.equal(Object.keys(pkg.dependencies ?? {}).length, 0, 'the bundle needs no runtime dependency');
  const prefix = join(dir, 'prefix');
  execFileSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, join(dir, packed[0]!.filename)], { stdio: 'pipe' });
  const r = await runCli(['--version'], { command: [join(prefix, 'bin', 'enginectl')] });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${VERSION}\n`);
  // The installed package on the Node lines CI images carry (from the npm registry's node package).
  const installed = join(prefix, 'lib', 'node_modules', 'enginectl', 'dist', 'cli.mjs');
  // The demo the package's README runs is in the package: a user of the npm package has no clone.
  const demoFile = join(prefix, 'lib', 'node_modules', 'enginectl', 'pipelines', 'demo.yml');
  const PATH = pathForNestedNpx().join(':');
  for (const line of ['22', '24']) {
    const node = ['npx', '-y', `node@${line}`, installed];
    const valid = await runCli(['validate', demoFile, '--emulator'], { command: node, env: { PATH } });
    assert.equal(valid.code, 0, `Node ${line}: ${valid.stderr}`);
    const demo = await runCli(['run', demoFile, '--emulator'], { command: node, env: { PATH } });
    assert.equal(demo.code, 0, `Node ${line}: ${demo.stdout}${demo.stderr}`);
    assert.match(demo.stdout, /^pipeline "Release 2026\.11 \(demo\)": success /m, `Node ${line}`);
  }
});
