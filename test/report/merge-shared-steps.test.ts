// --only site=X keeps every instance of a step whose matrix has no `site` key (a key an instance does
// not have never filters it): like a step without a matrix, it runs in every job. report --merge of
// the jobs keeps each such instance once, as the job where it went worst saw it, instead of refusing
// the jobs as overlapping; two reports that both chose an instance by its own key still overlap.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import type { Report } from '../../src/report/index.ts';
import { VERSION } from '../../src/version.ts';

const PIPELINE = `version: 1
name: Two keys
servers:
  a: { url: "https://a.example.com", username: admin, password: admin }
  b: { url: "https://b.example.com", username: admin, password: admin }
  hub: { url: "https://hub.example.com", username: admin, password: admin }
steps:
  - name: Clear (\${{ matrix.site }})
    uses: transaction-log/clear
    matrix: { site: [a, b] }
    server: \${{ matrix.site }}
  - name: Hub check \${{ matrix.gate }}
    uses: monitoring/engines
    matrix: { gate: [one, two] }
    server: hub
    continue-on-error: true
    fail-fast: false
`;

test('report --merge keeps once each instance of a matrix over another key than the jobs were limited by', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-shared-'));
  const file = join(dir, 'k.yml');
  writeFileSync(file, PIPELINE);
  const job = (site: string, ...more: string[]) =>
    runCli(['run', file, '--emulator', '--only', `site=${site}`, '--report-json', join(dir, `${site}.json`), ...more]);
  const a = await job('a');
  assert.equal(a.code, 0, a.stdout + a.stderr);
  // In site b's job the hub refuses its first check: that check fails there (continue-on-error).
  const b = await job('b', '--fault', 'GET /api/monitoring/* site=hub status=403 times=1');
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const merged = await runCli([
    'report',
    '--merge',
    join(dir, 'a.json'),
    join(dir, 'b.json'),
    '--report-json',
    join(dir, 'm.json'),
  ]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as Report;
  assert.deepEqual(
    report.steps.map((s) => `${s.name}: ${s.outcome}`),
    ['Clear (a): success', 'Clear (b): success', 'Hub check one: failure', 'Hub check two: success'],
    'each instance once; the hub check as the job where it went worst saw it',
  );
  assert.deepEqual(report.merged?.noReport, []);
  // Two jobs that both ran site a still overlap (two attempts of its job): merge the last attempt's report only.
  copyFileSync(join(dir, 'a.json'), join(dir, 'a-again.json'));
  const twice = await runCli(['report', '--merge', join(dir, 'a.json'), join(dir, 'a-again.json')]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /both have step 1 \(site=a\)/);
});

test('report --merge refuses two reports that each ran every instance, as it refuses two of one site', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-unlimited-'));
  const file = join(dir, 'one.yml');
  writeFileSync(
    file,
    `version: 1
name: No matrix
steps:
  - name: Clear
    uses: transaction-log/clear
`,
  );
  // The job's first attempt failed, its second succeeded: merged, the fleet would fail on the first.
  const first = await runCli([
    'run',
    file,
    '--emulator',
    '--report-json',
    join(dir, '1.json'),
    '--fault',
    'POST /api/devops/v1/transaction-log/clear status=403',
  ]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const second = await runCli(['run', file, '--emulator', '--report-json', join(dir, '2.json')]);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  const merged = await runCli(['report', '--merge', join(dir, '1.json'), join(dir, '2.json')]);
  assert.equal(merged.code, 2, merged.stdout + merged.stderr);
  assert.match(merged.stderr, /both ran every instance/);
  assert.match(merged.stderr, /code: MERGE_OVERLAP/);
});

test("the merged report names the enginectl that wrote it, not the first job report's", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-tool-'));
  const file = join(dir, 'k.yml');
  writeFileSync(file, PIPELINE);
  for (const site of ['a', 'b']) {
    const r = await runCli([
      'run',
      file,
      '--emulator',
      '--only',
      `site=${site}`,
      '--report-json',
      join(dir, `${site}.json`),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  // Site a's job ran an older enginectl.
  const a = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as Report;
  writeFileSync(join(dir, 'a.json'), JSON.stringify({ ...a, tool: { name: 'enginectl', version: '0.0.1' } }));
  const merged = await runCli([
    'report',
    '--merge',
    join(dir, 'a.json'),
    join(dir, 'b.json'),
    '--report-json',
    join(dir, 'm.json'),
  ]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as Report;
  assert.equal(report.tool.version, VERSION);
});

test('report --merge of one report file given twice says so (MERGE_OVERLAP), not that jobs overlap by their --only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-twice-'));
  const file = join(dir, 'k.yml');
  writeFileSync(file, PIPELINE);
  const a = await runCli(['run', file, '--emulator', '--only', 'site=a', '--report-json', join(dir, 'a.json')]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  const merged = await runCli(['report', '--merge', join(dir, 'a.json'), join(dir, '.', 'b', '..', 'a.json')]);
  assert.equal(merged.code, 2, merged.stdout + merged.stderr);
  assert.match(merged.stderr, /code: MERGE_OVERLAP/);
  assert.match(merged.stderr, /a\.json is given twice/);
  assert.match(merged.stderr, /give each report once/);
  assert.doesNotMatch(merged.stderr, /--only/);
});
