// Every command that learns the secrets of a pipeline (or of its own call) registers each of them
// with the CI system's own masking (`::add-mask::`, `##vso[task.setsecret]`), as `run` does, in the
// forms the runner does not derive itself (hex in both cases, base64's other spellings, the Basic
// `user:password` pair): enginectl masks its own output, but a later step's output is masked by the
// runner alone. plan (live, its audit, dry), run --plan refused as stale, verify, decide, lease
// release, report --webhook and api, through the CLI against the emulator.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { runCli } from '../helpers/cli.ts';
import { closedPort, startEmulator } from '../helpers/emulator.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';

const USER = 'deployer';
const PASSWORD = 'Zq9-pw/Secret41';
const TOKEN = 'prod-token-7Kx9';
const PREFIX = { github: '::add-mask::', azure: '##vso[task.setsecret]' } as const;

/** The values a CI's registration lines in `out` give, as printed (none of the secrets here holds a character either escapes). */
const registered = (out: string, prefix: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .map((l) => l.slice(prefix.length));

/** The forms of a secret a runner matches only when they are registered: hex in both cases, base64 URL-safe unpadded. */
function underived(secret: string): string[] {
  const hex = Buffer.from(secret).toString('hex');
  return [secret, hex, hex.toUpperCase(), Buffer.from(secret).toString('base64url')];
}

/** Each of `secrets` (and the Basic pair of each login) registered in each form the runner does not derive. */
function assertRegistered(who: string, out: string, secrets: string[], prefix: string = PREFIX.github) {
  const got = new Set(registered(out, prefix));
  for (const secret of secrets)
    for (const form of underived(secret)) assert.ok(got.has(form), `${who}: ${form} is not registered:\n${out}`);
}

/** The registrations come first: no other line before the last of them. */
function assertFirst(who: string, out: string, prefix: string) {
  const lines = out.split('\n');
  const last = lines.findLastIndex((l) => l.startsWith(prefix));
  const other = lines.findIndex((l) => !l.startsWith(prefix));
  assert.ok(last < other, `${who}: a line before a registration:\n${out}`);
}

const ALERTS = 'version: 1\nname: alerts\nsteps:\n  - uses: monitoring/alerts\n';

for (const ci of ['github', 'azure'] as const)
  test(`plan --live and its drift audit (--expect) --ci ${ci} register each secret with the CI's masking as run does, before any other line`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    emulator.users.push({ name: USER, password: PASSWORD, scopes: new Set(ALL_SCOPES) });
    const file = join(mkdtempSync(join(tmpdir(), 'enginectl-registration-')), 'p.yml');
    writeFileSync(file, ALERTS);
    const env = { ENGINE_URL: url, ENGINE_USERNAME: USER, ENGINE_PASSWORD: PASSWORD };
    const ran = await runCli(['run', file, '--ci', ci], { env });
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    const byRun = registered(ran.stdout, PREFIX[ci]).sort();
    assertRegistered('run', ran.stdout, [PASSWORD, `${USER}:${PASSWORD}`], PREFIX[ci]);
    for (const args of [
      ['plan', file, '--live', '--ci', ci],
      ['plan', file, '--live', '--expect', '--ci', ci],
    ]) {
      const r = await runCli(args, { env });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(registered(r.stdout, PREFIX[ci]).sort(), byRun, `${args.join(' ')}: as run registers them`);
      assertFirst(args.join(' '), r.stdout, PREFIX[ci]);
    }
  });

test('plan and run --dry-run (no request) register the secrets they are given, as the action dry run does', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-registration-')), 'p.yml');
  writeFileSync(
    file,
    `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/system
    with: { target: prod }
`,
  );
  const env = {
    ENGINE_URL: 'https://prod.example.com',
    ENGINE_USERNAME: USER,
    ENGINE_PASSWORD: PASSWORD,
    PROD_TOKEN: TOKEN,
  };
  for (const args of [
    ['plan', file, '--ci', 'github'],
    ['run', file, '--dry-run', '--ci', 'github'],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assertRegistered(args.join(' '), r.stdout, [TOKEN, PASSWORD, `${USER}:${PASSWORD}`]);
    assertFirst(args.join(' '), r.stdout, PREFIX.github);
  }
});

test('run --plan refused as stale has registered the credentials its reads carried', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.users.push({ name: USER, password: PASSWORD, scopes: new Set(ALL_SCOPES) });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-registration-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, ALERTS.replace('monitoring/alerts', 'monitoring/alerts\n    with: { fail-on: critical }'));
  const env = { ENGINE_URL: url, ENGINE_USERNAME: USER, ENGINE_PASSWORD: PASSWORD };
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  emulator.state.alerts.push({
    severity: 'critical',
    code: 'disk_full',
    message: 'disk full',
    engineId: 'eng-prod-01',
  });
  const r = await runCli(['run', file, '--plan', plan, '--ci', 'github'], { env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: PLAN_STALE/);
  assertRegistered('run --plan', r.stdout, [PASSWORD, `${USER}:${PASSWORD}`]);
});

test('verify, decide and lease release of a parked run register the secrets of its pipeline in GitHub Actions', async (t) => {
  const f = await parkFleet(
    t,
    3,
    '  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide',
    'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }',
  );
  // site-002's update reaches the server, its answer does not: a write in doubt, the run parked on it.
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-002',
  });
  const parked = await f.run();
  assert.equal(parked.code, PARKED, parked.stdout + parked.stderr);
  const id = runIdOf(parked.stdout)!;
  const env = { ...f.env, PROD_TOKEN: TOKEN, GITHUB_ACTIONS: 'true' };
  for (const args of [
    ['verify', '--store', f.storeUrl, '--run', id],
    ['decide', '--store', f.storeUrl, '--run', id],
    ['lease', 'release', '--store', f.storeUrl, 'fleet', '--reason', 'checked by hand'],
  ]) {
    const r = await runCli(args, { env, clock: f.clock });
    assert.notEqual(r.code, 2, r.stdout + r.stderr);
    assertRegistered(args.slice(0, 2).join(' '), r.stdout, [TOKEN, 'admin:admin']);
  }
});

test('report --webhook registers the webhook URL, and its token, as run --webhook does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-registration-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, ALERTS);
  const json = join(dir, 'r.json');
  const ran = await runCli(['run', file, '--emulator', '--report-json', json]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const hook = 'whk-Token-8Jq2Lm4Xz';
  const webhook = `http://127.0.0.1:${await closedPort()}/hooks?token=${hook}`;
  for (const args of [
    ['report', '--merge', json, '--webhook', webhook, '--ci', 'github'],
    ['run', file, '--emulator', '--webhook', webhook, '--ci', 'github'],
  ]) {
    const r = await runCli(args);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assertRegistered(args[0]!, r.stdout, [webhook, hook]);
  }
});

test('api registers its password and Basic pair in GitHub Actions, on stderr: its stdout stays the answer alone', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.users.push({ name: USER, password: PASSWORD, scopes: new Set(ALL_SCOPES) });
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/engines'], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: USER, ENGINE_PASSWORD: PASSWORD, GITHUB_ACTIONS: 'true' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assertRegistered('api', r.stderr, [PASSWORD, `${USER}:${PASSWORD}`]);
  assert.doesNotThrow(() => JSON.parse(r.stdout), 'the answer alone, for jq');
});
