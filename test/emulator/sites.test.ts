// The emulator serves several sites, each an API server with a state of its own, under one clock:
// what one site holds or is sent is not seen at another.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sampleState, serve, Sites } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'enginectl-sites-'));

/** The sample state with one Engine silent for hours: offline. */
export function stateWithEngineOffline(instanceId: string): string {
  const state = sampleState(Date.now());
  const engine = state.engines.find((e) => e.instanceId === instanceId)!;
  engine.reporting = false;
  engine.updatedAt = Date.now() - 3 * 60 * 60_000;
  const file = join(dir(), `${instanceId}-offline.json`);
  writeFileSync(file, JSON.stringify(state));
  return file;
}

test('run --emulator: each server of the pipeline is a site with its own state (--state SITE=FILE)', async () => {
  const r = await runCli(
    [
      'run',
      'pipelines/three-site-release.yml',
      '--emulator',
      '--state',
      `prod=${stateWithEngineOffline('eng-prod-02')}`,
      '--var',
      'files=[1001]',
    ],
    {
      env: {
        TEST_ENGINE_PASSWORD: 'unused-1',
        STAGING_ENGINE_PASSWORD: 'unused-2',
        PROD_ENGINE_PASSWORD: 'unused-3',
        TEST_DEPLOY_PASSWORD: 'deploy-pass',
        STAGING_TOKEN: 'staging-token',
        PROD_TOKEN: 'prod-token',
      },
    },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  // Only prod's state has the Engine offline: the gate fails there, and holds at test and staging.
  assert.match(r.stdout, /✖ \[3\/4\] Engines of prod online [^\n]*missing: eng-prod-02/);
  assert.match(r.stdout, /✔ \[3\/4\] Engines of test online /);
  assert.match(r.stdout, /✔ \[3\/4\] Engines of staging online /);
});

test('one emulator serves many sites: a write at one is not seen at another; the root is the site "default"', async (t) => {
  const sites = new Sites();
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const auth = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
  const count = async (base: string) =>
    ((await (await fetch(`${base}/api/monitoring/v1/alerts`, { headers: auth })).json()) as unknown[]).length;
  const before = await count(`${running.url}/sites/emea`);
  sites
    .site('emea')
    .state.alerts.push({ severity: 'critical', code: 'disk', message: 'low disk', engineId: 'eng-prod-01' });
  assert.equal(await count(`${running.url}/sites/emea`), before + 1);
  assert.equal(await count(`${running.url}/sites/amer`), before);
  assert.equal(await count(running.url), before);
  assert.deepEqual([...sites.started().keys()].sort(), ['amer', 'default', 'emea']);
  // Each site keeps its own request log.
  assert.equal(sites.site('amer').requests.length, 1);
  assert.equal(sites.site('amer').requests[0]!.path, '/api/monitoring/v1/alerts');
});

test('an error names the server with its path: the site that failed, not only the host all sites share (no credentials)', async () => {
  const r = await runCli(
    [
      'run',
      'pipelines/three-site-release.yml',
      '--emulator',
      '--fault',
      'GET /api/monitoring/v1/engines status=500 site=prod',
      '--var',
      'files=[1001]',
    ],
    {
      env: {
        TEST_ENGINE_PASSWORD: 'unused-1',
        STAGING_ENGINE_PASSWORD: 'unused-2',
        PROD_ENGINE_PASSWORD: 'unused-3',
        TEST_DEPLOY_PASSWORD: 'deploy-pass',
        STAGING_TOKEN: 'staging-token',
        PROD_TOKEN: 'prod-token',
      },
    },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /error: GET \/api\/monitoring\/v1\/engines on http:\/\/127\.0\.0\.1:\d+\/sites\/prod: the server answered HTTP 500/,
  );
  assert.doesNotMatch(r.stdout + r.stderr, /unused-3/);
});

test('run --emulator with a server whose name holds a lone surrogate (a YAML "\\ud800" escape): it runs and writes its reports, not an internal error', async () => {
  const d = dir();
  const file = join(d, 'odd.yml');
  writeFileSync(
    file,
    `version: 1
name: odd names
servers:
  "sur\\ud800rogate": { url: "https://odd.example.com", username: admin, password: admin }
steps:
  - uses: monitoring/alerts
    server: "sur\\ud800rogate"
    with: { fail-on: critical }
`,
  );
  const json = join(d, 'r.json');
  const r = await runCli(['run', file, '--emulator', '--report-json', json]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stderr, /internal error/);
});
