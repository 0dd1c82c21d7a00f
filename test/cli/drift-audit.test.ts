// The drift audit: plan --live --expect reads every site of a fleet with GET requests only and
// says, per site, whether it holds what the audit pipeline expects; exit 1 names who drifted.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Emulator, sampleState, serve } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';
import { closedPort } from '../helpers/emulator.ts';
import { siteSecrets, startSites } from '../helpers/sites.ts';
import { until } from '../helpers/timing.ts';

const SECRETS = {
  TEST_ENGINE_PASSWORD: 'unused-test',
  STAGING_ENGINE_PASSWORD: 'unused-staging',
  PROD_ENGINE_PASSWORD: 'unused-prod',
};

/** A state file: the sample state with every Engine on `version`. */
function stateOn(dir: string, version: string): string {
  const state = sampleState(Date.now());
  for (const engine of state.engines) engine.version = version;
  const file = join(dir, `on-${version}.json`);
  writeFileSync(file, JSON.stringify(state));
  return file;
}

test('a three-site drift audit where one site lags a version exits 1, and its JSON and summary name that site', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-drift-'));
  // test and staging run the release; prod still runs 26.10.3.
  const r = await runCli(
    [
      'plan',
      'pipelines/drift-audit.yml',
      '--live',
      '--expect',
      '--emulator',
      '--state',
      stateOn(dir, '26.11.0'),
      '--state',
      `prod=${stateOn(dir, '26.10.3')}`,
      '--json',
      join(dir, 'drift.json'),
      '--summary',
      join(dir, 'drift.md'),
    ],
    { env: SECRETS },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /^drift audit of "Fleet drift audit" at [^:]+:\d\d:[\d.]+Z: DRIFT at 1 of 3 site\(s\): prod$/m,
  );
  assert.match(r.stdout, /^ {2}test {5}ok {5}4\/4 hold$/m);
  assert.match(
    r.stdout,
    /^ {2}prod {5}DRIFT {2}3\/4 hold\n {13}\[1\/4\] Release 26\.11\.0 on the Engines of prod: .*eng-prod-01 on 26\.10\.3, eng-prod-02 on 26\.10\.3$/m,
  );
  const audit = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8'));
  assert.equal(audit.kind, 'enginectl-drift-audit');
  assert.deepEqual(audit.drifted, ['prod']);
  assert.deepEqual(
    audit.sites.map((s: { site: string; drifted: boolean }) => [s.site, s.drifted]),
    [
      ['test', false],
      ['staging', false],
      ['prod', true],
    ],
  );
  const prod = audit.sites[2].checks.find((c: { state: string }) => c.state === 'drift');
  assert.match(prod.found, /eng-prod-01 on 26\.10\.3/);
  assert.match(
    readFileSync(join(dir, 'drift.md'), 'utf8'),
    /^\| prod \| \*\*drift\*\* \| 3\/4 hold \| \\\[1\/4\\\] Release 26\.11\.0 on the Engines of prod: /m,
  );

  // Every site on the release: no drift, exit 0.
  const clean = await runCli(
    ['plan', 'pipelines/drift-audit.yml', '--live', '--expect', '--emulator', '--state', stateOn(dir, '26.11.0')],
    { env: SECRETS },
  );
  assert.equal(clean.code, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /no drift: every check holds at 3 site\(s\)/);
});

test('a drift audit only reads: a pipeline that writes is refused (exit 2), and --expect goes with --live', async () => {
  const r = await runCli(['plan', 'pipelines/demo.yml', '--live', '--expect', '--emulator']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /a drift audit only reads, and \[4\/9\] Clear the transaction log \(transaction-log\/clear\), .* would write/,
  );
  const notLive = await runCli(['plan', 'pipelines/drift-audit.yml', '--expect']);
  assert.equal(notLive.code, 2);
  assert.match(notLive.stderr, /--expect, --json and --summary go with --live/);
  const saved = await runCli([
    'plan',
    'pipelines/drift-audit.yml',
    '--live',
    '--expect',
    '--out',
    'x.json',
    '--emulator',
  ]);
  assert.equal(saved.code, 2);
  assert.match(saved.stderr, /--out saves a plan to run, and a drift audit \(--expect\) is none/);
});

test('a site that cannot be reached is no drift: the audit names it unreachable, with its own exit code 3', async (t) => {
  const { urls, emulators } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-drift-down-'));
  // test and staging answer, every Engine on 26.10.3; prod's server is down.
  for (const site of ['test', 'staging'] as const)
    for (const engine of emulators[site].state.engines) engine.version = '26.10.3';
  const env = {
    ...siteSecrets('test', urls.test),
    ...siteSecrets('staging', urls.staging),
    PROD_ENGINE_URL: `http://127.0.0.1:${await closedPort()}`,
    PROD_ENGINE_PASSWORD: 'prod-api-pass',
  };
  const r = await runCli(
    [
      'plan',
      'pipelines/drift-audit.yml',
      '--live',
      '--expect',
      '--var',
      'release=26.10.3',
      '--json',
      join(dir, 'drift.json'),
      '--summary',
      join(dir, 'drift.md'),
    ],
    { env },
  );
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stdout, /: UNREACHABLE: 1 of 3 site\(s\) could not be read: prod$/m);
  assert.doesNotMatch(r.stdout, /DRIFT/);
  assert.match(
    r.stdout,
    /^ {2}prod {5}UNREACHABLE {2}0\/0 hold\n {13}\[1\/4\] Release 26\.10\.3 on the Engines of prod: .*connection refused/im,
  );
  const audit = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8'));
  assert.deepEqual(audit.drifted, []);
  assert.deepEqual(audit.unreachable, ['prod']);
  assert.deepEqual(
    audit.sites.map((s: { site: string; drifted: boolean; unreachable: boolean }) => [
      s.site,
      s.drifted,
      s.unreachable,
    ]),
    [
      ['test', false, false],
      ['staging', false, false],
      ['prod', false, true],
    ],
  );
  assert.ok(audit.sites[2].checks.every((c: { state: string }) => c.state === 'unreachable'));
  const md = readFileSync(join(dir, 'drift.md'), 'utf8');
  assert.match(md, /^## 🟧 Fleet drift audit: UNREACHABLE: 1 of 3 site\(s\) could not be read: prod$/m);
  assert.match(md, /^\| prod \| \*\*unreachable\*\* \| 0\/0 hold \| /m);
  assert.doesNotMatch(md, /drift\*\*/);

  // A site that drifted and one that cannot be read: the drift decides the exit code (1), both are named.
  const drifting = await runCli(
    ['plan', 'pipelines/drift-audit.yml', '--live', '--expect', '--json', join(dir, 'both.json')],
    { env },
  );
  assert.equal(drifting.code, 1, drifting.stdout + drifting.stderr);
  assert.match(drifting.stdout, /: DRIFT at 2 of 3 site\(s\): test, staging; 1 could not be read: prod$/m);
  const both = JSON.parse(readFileSync(join(dir, 'both.json'), 'utf8'));
  assert.deepEqual([both.drifted, both.unreachable], [['test', 'staging'], ['prod']]);
});

test("a site whose every read was refused (401: a rotated password) or answered by a gateway's 503 page is no drift: nothing was read of it, it is unreachable (exit 3)", async (t) => {
  const { urls, emulators } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-drift-unread-'));
  for (const site of ['test', 'staging', 'prod'] as const)
    for (const engine of emulators[site].state.engines) engine.version = '26.10.3';
  emulators.staging.faults.add({
    path: '/api/*',
    status: 503,
    contentType: 'text/html',
    body: '<html><body>503 Service Unavailable</body></html>',
  });
  const env = {
    ...siteSecrets('test', urls.test),
    ...siteSecrets('staging', urls.staging),
    ...siteSecrets('prod', urls.prod),
    PROD_ENGINE_PASSWORD: 'rotated-since',
  };
  const r = await runCli(
    [
      'plan',
      'pipelines/drift-audit.yml',
      '--live',
      '--expect',
      '--var',
      'release=26.10.3',
      '--json',
      join(dir, 'drift.json'),
    ],
    { env },
  );
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /DRIFT/);
  const audit = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8'));
  assert.deepEqual(audit.drifted, []);
  assert.deepEqual(audit.unreachable, ['staging', 'prod']);
});

test('a site answered only by a redirect to a login, a login page (200, HTML) or 429 Too Many Requests is no drift either: nothing was read of it', async (t) => {
  const { urls, emulators } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-drift-login-'));
  const page = '<html><body>Sign in</body></html>';
  emulators.test.faults.add({ path: '/api/*', status: 302, contentType: 'text/html', body: page });
  emulators.staging.faults.add({ path: '/api/*', status: 200, contentType: 'text/html', body: page });
  emulators.prod.faults.add({ path: '/api/*', status: 429, contentType: 'text/html', body: page });
  const env = {
    ...siteSecrets('test', urls.test),
    ...siteSecrets('staging', urls.staging),
    ...siteSecrets('prod', urls.prod),
  };
  const r = await runCli(
    ['plan', 'pipelines/drift-audit.yml', '--live', '--expect', '--json', join(dir, 'drift.json')],
    { env },
  );
  assert.equal(r.code, 3, r.stdout + r.stderr);
  const audit = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8'));
  assert.deepEqual(audit.drifted, []);
  assert.deepEqual(audit.unreachable, ['test', 'staging', 'prod']);
});

test("a site answered only by a cache's 304 (or a 300) is no drift: nothing was read of it", async (t) => {
  const { urls, emulators } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-drift-304-'));
  emulators.test.faults.add({ path: '/api/*', status: 304, contentType: 'text/plain', body: '' });
  emulators.staging.faults.add({ path: '/api/*', status: 300, contentType: 'text/plain', body: '' });
  const env = {
    ...siteSecrets('test', urls.test),
    ...siteSecrets('staging', urls.staging),
    ...siteSecrets('prod', urls.prod),
  };
  const r = await runCli(
    ['plan', 'pipelines/drift-audit.yml', '--live', '--expect', '--json', join(dir, 'drift.json')],
    { env },
  );
  const audit = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8'));
  assert.deepEqual(audit.unreachable, ['test', 'staging'], r.stdout + r.stderr);
  assert.ok(!audit.drifted.includes('test') && !audit.drifted.includes('staging'), r.stdout);
});

test('a check whose reads all fail names the first of them in its own order (GET licenses), not the first to fail in time', async (t) => {
  const emulator = new Emulator();
  const running = await serve(emulator, { port: 0 });
  t.after(() => running.close());
  // licensing/check reads licenses and products at once. Products is refused at once (401: nothing
  // read), licenses gets no answer until the server goes away, and fails after it.
  const base = '/api/licensing/v1';
  emulator.faults.add({ method: 'GET', path: `${base}/licenses`, hang: true });
  emulator.faults.add({ method: 'GET', path: `${base}/products`, status: 401 });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-drift-order-'));
  const file = join(dir, 'licenses.yml');
  writeFileSync(
    file,
    'version: 1\nname: Licenses\nsteps:\n  - name: ERP Core licensed\n    uses: licensing/check\n    with: { product: ERP Core }\n',
  );
  const audit = runCli(['plan', file, '--live', '--expect', '--json', join(dir, 'audit.json')], {
    env: { ENGINE_URL: running.url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  await until(() => emulator.requests.some((r) => r.path === `${base}/products` && r.status === 401));
  await running.close();
  const r = await audit;
  assert.equal(r.code, 3, r.stdout + r.stderr);
  const { sites } = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8'));
  assert.equal(sites[0].checks[0].state, 'unreachable');
  assert.match(sites[0].checks[0].found, /^GET \/api\/licensing\/v1\/licenses /);
});
