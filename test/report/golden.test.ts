// Golden files pin the Markdown summary, the JSON report, the JUnit XML and the HTML report of three runs: a
// release that succeeds, a replication that fails on one of two targets, and a run cancelled in
// the middle of a call. Times come from a clock that moves only when read, so the files are the
// same on every machine. UPDATE_GOLDEN=1 npm test rewrites them; review the diff before committing.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { golden } from '../helpers/golden.ts';
import { buildReport, renderHtml, renderJson, renderJunit, renderMarkdown } from '../../src/report/index.ts';
import type { RunResult } from '../../src/runner/result.ts';
import { VERSION } from '../../src/version.ts';
import { runYaml, tickingClock, type RunYamlOptions } from '../helpers/run.ts';
import { draft2020, junitProblems } from '../helpers/schemas.ts';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const REPORT_SCHEMA = new URL('../../schema/report.schema.json', import.meta.url).pathname;

const HEADER = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: deploy-pass }
`;

const CASES: { name: string; yaml: string; options?: (t: TestContext) => RunYamlOptions }[] = [
  {
    name: 'success',
    yaml: `${HEADER}name: Release 26.11
steps:
  - name: No critical alerts
    uses: monitoring/alerts
    with: { fail-on: critical }
  - id: system
    name: System update
    uses: update/system
    matrix: { target: [staging, prod] }
    max-parallel: 1
    with: { target: "\${{ matrix.target }}", products: [1, 2, 3], tracking-id: REL-26.11.0, message: Release 26.11.0 }
  - name: Reports to production
    uses: update/vfs
    with: { target: prod, files: [1001, 1004] }
  - name: Only on failure
    if: failure()
    uses: transaction-log/clear
`,
  },
  {
    name: 'replication-partial-failure',
    yaml: `${HEADER}name: Nightly replication
steps:
  - name: Clear the transaction log
    uses: transaction-log/clear
  - id: sync
    name: Sync the replicas
    uses: replication/sync
  - name: Record the sync
    uses: classes/create
    with: { class: 30, fields: { name: nightly } }
  - name: Tell the on-call
    if: failure()
    uses: assert
    with: { that: "\${{ steps.sync.outputs.failed == 1 }}", message: exactly one replica failed }
`,
    options: () => ({
      setup: (emulator) => emulator.failReplication('REPLICA-2', 'disk full on replica2.example.com'),
    }),
  },
  {
    name: 'cancelled',
    yaml: `${HEADER}name: Release interrupted
steps:
  - name: Reports to production
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - name: Engines online
    uses: monitoring/engines
    with: { min-online: 1 }
  - name: System update
    uses: update/system
    with: { target: prod }
`,
    options: () => {
      const stop = new AbortController();
      return {
        signal: stop.signal,
        setup: (emulator) => {
          emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/engines', hang: true });
          const timer = setInterval(() => {
            if (emulator.inFlight > 0) {
              clearInterval(timer);
              stop.abort(new Error('received SIGINT'));
            }
          }, 5);
        },
      };
    },
  },
  {
    // Each write's window verdict and the time waited in every report: one fits, one would overrun
    // its window and goes out on an allowed override.
    name: 'windows',
    yaml: `${HEADER}name: Night maintenance
windows:
  night: { cron: '0 1 * * *', duration: 2h, zone: UTC }
override-freeze: [alice]
steps:
  - name: Clear the transaction log
    uses: transaction-log/clear
    expected: 10m
  - name: Reports to production
    uses: update/vfs
    expected: 1h
    with: { target: prod, files: [1001] }
`,
    options: () => ({
      clock: tickingClock(Date.UTC(2026, 2, 10, 2, 30, 0)),
      windowOverride: { by: 'alice', reason: 'INC-7: the reports are wrong' },
    }),
  },
];

function normalise(text: string): string {
  return text.replaceAll(VERSION, '0.0.0-golden').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
}

const check = golden;

const runs = new Map<string, RunResult>();

for (const c of CASES) {
  test(`golden reports: ${c.name}`, async (t) => {
    const { result } = await runYaml(t, c.yaml, {
      clock: tickingClock(),
      file: `pipelines/${c.name}.yml`,
      ...c.options?.(t),
    });
    runs.set(c.name, result);
    const report = buildReport(result);
    check(`${c.name}.md`, normalise(renderMarkdown(report, { fullReport: 'report.json and report.html' })));
    check(`${c.name}.json`, normalise(renderJson(report)));
    check(`${c.name}.junit.xml`, normalise(renderJunit(report)));
    check(`${c.name}.html`, normalise(renderHtml(report)));
  });
}

test('the golden runs have the outcomes they are named after', () => {
  assert.equal(runs.get('success')?.outcome, 'success');
  const partial = runs.get('replication-partial-failure')!;
  assert.equal(partial.outcome, 'failure');
  assert.deepEqual(
    partial.steps.map((s) => s.outcome),
    ['success', 'failure', 'skipped', 'success'],
  );
  const cancelled = runs.get('cancelled')!;
  assert.equal(cancelled.outcome, 'cancelled');
  assert.deepEqual(
    cancelled.steps.map((s) => s.outcome),
    ['success', 'cancelled', 'cancelled'],
  );
});

test('every golden JSON report is valid against the committed schema/report.schema.json', () => {
  const validate = draft2020(REPORT_SCHEMA);
  for (const c of CASES) {
    const json = JSON.parse(readFileSync(new URL(`${c.name}.json`, GOLDEN), 'utf8'));
    assert.ok(validate(json), `${c.name}.json: ${JSON.stringify(validate.errors)}`);
  }
});

test("every golden JUnit file is valid against Jenkins' junit-10.xsd (xmllint)", async (t) => {
  for (const c of CASES) {
    const problems = await junitProblems(new URL(`${c.name}.junit.xml`, GOLDEN).pathname);
    assert.equal(problems, undefined, `${c.name}.junit.xml: ${problems}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-junit-'));
  t.after(() => undefined);
  // Hostile names and messages stay valid XML: control characters, quotes, markup.
  const hostile = renderJunit(
    buildReport({
      file: 'p.yml',
      name: 'a "quoted" <name> & \u0001',
      outcome: 'failure',
      startedAt: 0,
      durationMs: 5,
      steps: [
        {
          key: '0',
          step: 0,
          id: undefined,
          name: ']]> <x/> \u001b[31m',
          uses: 'assert',
          matrix: undefined,
          server: undefined,
          outcome: 'failure',
          continuedOnError: false,
          startedAt: 0,
          durationMs: 5,
          attempts: 1,
          inputs: {},
          outputs: {},
          figures: undefined,
          error: { code: 'STEP_FAILED', message: '</failure><!-- \u0000', hint: undefined },
          warnings: [],
          result: null,
        },
      ],
    }),
  );
  writeFileSync(join(dir, 'hostile.xml'), hostile);
  assert.equal(await junitProblems(join(dir, 'hostile.xml')), undefined);
});
