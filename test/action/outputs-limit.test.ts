// The outputs output against GitHub's limit of 1 MB for one output: a run whose steps' outputs are
// larger keeps it under the limit, leaving out the largest instances' outputs (null) and saying so
// in a warning that points at the JSON report, which holds them all. Before, it was set whole
// (1.5 MB here; 3.5 MB for a 1,000-site fleet), which a later step's fromJSON cannot read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const N = 300;
const PIPELINE = `version: 1
steps:
  - id: probe
    name: "Probe \${{ matrix.n }}"
    uses: api/request
    matrix: { n: [${Array.from({ length: N }, (_, i) => i + 1).join(', ')}] }
    with: { path: /api/monitoring/v1/alerts }
  - id: small
    uses: monitoring/alerts
`;

test('outputs over 1 MB: set under the limit, the largest instances left out (null) with a warning naming the report; the report keeps them all', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const big = JSON.stringify({ note: 'x'.repeat(5_000) });
  emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/alerts', status: 200, body: big, times: N });
  const r = await runActionInProcess(actionDef('enginectl'), {
    files: { 'p.yml': PIPELINE },
    inputs: { pipeline: 'p.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.outputs.outcome, 'success', r.failed.join('\n'));
  const value = r.outputs.outputs!;
  assert.ok(Buffer.byteLength(value) <= 1_000_000, `outputs is ${Buffer.byteLength(value)} bytes`);
  const outputs = JSON.parse(value) as { probe: { matrix: { n: number }; outputs: unknown }[]; small: unknown };
  assert.equal(outputs.probe.length, N, 'every instance is listed');
  const left = outputs.probe.filter((p) => p.outputs === null).length;
  assert.ok(left > 0 && left < N, `some instances' outputs are left out: ${left}`);
  assert.notEqual(outputs.small, null, 'a small step keeps its outputs');
  const warned = r.warnings.map((w) => w.message).find((m) => /output outputs/.test(m));
  assert.ok(warned, r.warnings.map((w) => w.message).join('\n'));
  assert.match(warned, new RegExp(`the outputs of ${left} step run\\(s\\) are left out \\(null\\)`));
  assert.match(warned, /GitHub's limit of 1 MB/);
  assert.match(warned, /output report/);
  const report = JSON.parse(readFileSync(r.outputs.report!, 'utf8')) as { steps: { id: string; outputs: unknown }[] };
  assert.equal(report.steps.filter((s) => s.id === 'probe' && s.outputs !== null).length, N, 'the report has them all');
});

test("a run whose many step runs failed: the step's failure message names the first 10 and counts the rest", async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/alerts', status: 409, times: 30 });
  const pipeline = PIPELINE.replace(
    `n: [${Array.from({ length: N }, (_, i) => i + 1).join(', ')}]`,
    'n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]',
  ).replace(
    '    with: { path: /api/monitoring/v1/alerts }',
    '    fail-fast: false\n    with: { path: /api/monitoring/v1/alerts }',
  );
  const r = await runActionInProcess(actionDef('enginectl'), {
    files: { 'p.yml': pipeline },
    inputs: { pipeline: 'p.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.outputs.outcome, 'failure');
  const failed = r.failed.join('\n');
  assert.match(failed, /failed: Probe 1, Probe 2, .*Probe 10 and 5 more$/, failed);
  assert.doesNotMatch(failed, /Probe 11/);
});
