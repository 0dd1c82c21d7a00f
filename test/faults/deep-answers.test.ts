// An answer nested deeper than any answer of the API (a hostile or broken server: 100,000 levels
// of arrays in 200 KB) fails its step as an invalid response, and the run goes on and writes
// every report. Before, the first walk of the value (masking it) overflowed the stack: the run
// died mid-step as an internal error, exit 1, with no report written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const PIPELINE = `version: 1
steps:
  - uses: api/request
    id: raw
    continue-on-error: true
    with: { method: GET, path: /api/monitoring/v1/engines }
  - uses: monitoring/alerts
    continue-on-error: true
  - uses: assert
    with: { that: "steps.raw.outcome == 'failure'" }
`;

test('an answer nested 100,000 levels deep fails its step as an invalid response; the run goes on and every report is written', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/engines', status: 200, body: DEEP, contentType: 'application/json' });
  emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/alerts', status: 200, body: `[{"id": 1, "severity": "warning", "text": "x", "nested": ${DEEP}}]`, contentType: 'application/json' });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-deep-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'p.yml'), PIPELINE);
  const at = (f: string) => join(dir, f);
  const r = await runCli(['run', at('p.yml'), '--journal', at('run.journal.jsonl'), '--report-json', at('r.json'), '--junit', at('r.xml'), '--summary', at('r.md'), '--html', at('r.html')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error/);
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as { steps: { outcome: string; error: { code: string; message: string } | null }[] };
  assert.deepEqual(report.steps.map((s) => [s.outcome, s.error?.code]), [['failure', 'API_INVALID_RESPONSE'], ['failure', 'API_INVALID_RESPONSE'], ['success', undefined]]);
  for (const step of report.steps.slice(0, 2)) assert.match(step.error!.message, /invalid response: the answer nests more than 100 levels deep/);
  for (const f of ['r.xml', 'r.md', 'r.html', 'run.journal.jsonl']) assert.ok(existsSync(at(f)), f);
});

test('report --merge refuses a job report holding a value nested past any report, before merging or rendering it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-deep-merge-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  const run = await runCli(['run', fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url)), '--emulator', '--report-json', at('job.json')]);
  assert.equal(run.code, 0, run.stderr);
  writeFileSync(at('deep.json'), readFileSync(at('job.json'), 'utf8').replace('"result":{', `"result":{"deep":${DEEP},`).replace('"result": {', `"result": {"deep": ${DEEP},`));
  assert.ok(readFileSync(at('deep.json'), 'utf8').length > 200_000, 'the deep value is in the report');
  const merged = await runCli(['report', '--merge', at('deep.json'), '--report-json', at('fleet.json')]);
  assert.equal(merged.code, 2, merged.stderr);
  assert.match(merged.stderr, /^enginectl: report --merge: .*deep\.json is not a JSON report of this enginectl: it nests more than 108 levels deep\n/);
  assert.equal(existsSync(at('fleet.json')), false);
});
