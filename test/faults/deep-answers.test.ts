// An answer nested deeper than any answer of the API (a hostile or broken server: 100,000 levels
// of arrays in 200 KB) fails its step as an invalid response, and the run goes on and writes
// every report. Before, the first walk of the value (masking it) overflowed the stack: the run
// died mid-step as an internal error, exit 1, with no report written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
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
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/engines',
    status: 200,
    body: DEEP,
    contentType: 'application/json',
  });
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    status: 200,
    body: `[{"id": 1, "severity": "warning", "text": "x", "nested": ${DEEP}}]`,
    contentType: 'application/json',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-deep-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'p.yml'), PIPELINE);
  const at = (f: string) => join(dir, f);
  const r = await runCli(
    [
      'run',
      at('p.yml'),
      '--journal',
      at('run.journal.jsonl'),
      '--report-json',
      at('r.json'),
      '--junit',
      at('r.xml'),
      '--summary',
      at('r.md'),
      '--html',
      at('r.html'),
    ],
    {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error/);
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as {
    steps: { outcome: string; error: { code: string; message: string } | null }[];
  };
  assert.deepEqual(
    report.steps.map((s) => [s.outcome, s.error?.code]),
    [
      ['failure', 'API_INVALID_RESPONSE'],
      ['failure', 'API_INVALID_RESPONSE'],
      ['success', undefined],
    ],
  );
  for (const step of report.steps.slice(0, 2))
    assert.match(step.error!.message, /invalid response: the answer nests more than 100 levels deep/);
  for (const f of ['r.xml', 'r.md', 'r.html', 'run.journal.jsonl']) assert.ok(existsSync(at(f)), f);
});

test('report --merge refuses a job report holding a value nested past any report, before merging or rendering it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-deep-merge-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  const run = await runCli([
    'run',
    fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url)),
    '--emulator',
    '--report-json',
    at('job.json'),
  ]);
  assert.equal(run.code, 0, run.stderr);
  writeFileSync(
    at('deep.json'),
    readFileSync(at('job.json'), 'utf8')
      .replace('"result":{', `"result":{"deep":${DEEP},`)
      .replace('"result": {', `"result": {"deep": ${DEEP},`),
  );
  assert.ok(readFileSync(at('deep.json'), 'utf8').length > 200_000, 'the deep value is in the report');
  const merged = await runCli(['report', '--merge', at('deep.json'), '--report-json', at('fleet.json')]);
  assert.equal(merged.code, 2, merged.stderr);
  assert.match(
    merged.stderr,
    /^enginectl: report --merge: .*deep\.json is not a JSON report of this enginectl: it nests more than 1000 levels deep\n/,
  );
  assert.equal(existsSync(at('fleet.json')), false);
});

test("a pipeline's fromJSON of a value nested past 100 levels fails its step, and the reports are written; written as a literal, validate refuses it", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-deep-fromjson-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
  // A literal cannot work whatever the run gives: refused before anything runs (exit 2), at its column.
  writeFileSync(
    at('literal.yml'),
    `version: 1\nsteps:\n  - uses: api/request\n    with: { method: POST, path: /api/classes/v1/entity/30, body: "\${{ fromJSON('${deep}') }}" }\n`,
  );
  const literal = await runCli(['validate', at('literal.yml')]);
  assert.equal(literal.code, 2, literal.stderr);
  assert.match(
    literal.stderr,
    /literal\.yml:4:\d+ invalid expression: fromJSON\(\): the value nests more than 100 levels deep/,
  );
  // A value the run reads (a var) is known only then: its step fails.
  writeFileSync(
    at('p.yml'),
    `version: 1\nvars:\n  deep: "${deep}"\nsteps:\n  - uses: api/request\n    with: { method: POST, path: /api/classes/v1/entity/30, body: "\${{ fromJSON(vars.deep) }}" }\n`,
  );
  const r = await runCli(['run', at('p.yml'), '--emulator', '--report-json', at('r.json')]);
  assert.equal(r.code, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error/);
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as {
    steps: { outcome: string; error: { message: string } | null }[];
  };
  assert.equal(report.steps[0]!.outcome, 'failure');
  assert.match(report.steps[0]!.error!.message, /fromJSON\(\): the value nests more than 100 levels deep/);
});

test('a journal record nested past any record enginectl writes is refused by report, report --merge and --resume, exit 2', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-deep-journal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  const demo = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));
  const run = await runCli(['run', demo, '--emulator', '--journal', at('j.jsonl')]);
  assert.equal(run.code, 0, run.stderr);
  // An end record with a deep value among its outputs, framed with its checksum as a writer would.
  let changed = false;
  const lines = readFileSync(at('j.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      if (changed || !line.startsWith('{"t":"end"') || !line.includes('"outputs":{')) return line;
      changed = true;
      const payload = `${line.slice(0, line.lastIndexOf(',"crc":'))}}`.replace(
        '"outputs":{',
        `"outputs":{"deep":${DEEP},`,
      );
      return `${payload.slice(0, -1)},"crc":"${crc32(payload).toString(16).padStart(8, '0')}"}`;
    });
  assert.ok(changed);
  writeFileSync(at('j.jsonl'), `${lines.join('\n')}\n`);
  for (const args of [
    ['report', at('j.jsonl'), '--report-json', at('r.json')],
    ['report', '--merge', at('j.jsonl')],
    ['run', demo, '--emulator', '--resume', at('j.jsonl')],
  ]) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /j\.jsonl:\d+: not a journal record \(it nests more than 1000 levels deep\)/,
      args.join(' '),
    );
  }
  assert.equal(existsSync(at('r.json')), false);
});
