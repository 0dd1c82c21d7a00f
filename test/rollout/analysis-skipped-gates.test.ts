// An analysis round in which no gate ran (each skipped by its `if:`) read nothing: it is no round
// that held, and an analysis of such rounds never lets the next wave start.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';

test('an analysis whose gates were all skipped by their if: read nothing: the rollout halts instead of saying they held', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-analysis-skipped-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
vars:
  sites: [site-001, site-002]
servers:
  site-001: { url: https://site-001.example.com }
  site-002: { url: https://site-002.example.com }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
rollout:
  over: site
  waves: [[site-001], rest]
  analysis: { gates: [alerts], count: 2, interval: 2m }
steps:
  - id: update
    name: "Update \${{ matrix.site }}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod }
  - id: alerts
    name: "No critical alert at \${{ matrix.site }}"
    uses: monitoring/alerts
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    # A matrix step has no outcome of its own (its instances do): this gate never runs.
    if: \${{ steps.update.outcome == 'success' }}
    with: { fail-on: critical }
`,
  );
  const json = join(dir, 'report.json');
  const r = await runCli([
    'run',
    file,
    '--emulator',
    '--report-json',
    json,
    '--fault',
    'POST /api/devops/v1/update/system site=site-001 raise-alert=critical:disk_full',
  ]);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  const [wave1, wave2] = report.rollout!.waves;
  assert.notEqual(wave1!.analysis?.passed, true, JSON.stringify(wave1));
  assert.match(wave1!.analysis!.text, /no gate ran/);
  assert.equal(wave2!.outcome, 'not-started', r.stdout);
  assert.equal(r.code, 1, r.stdout + r.stderr);
});
