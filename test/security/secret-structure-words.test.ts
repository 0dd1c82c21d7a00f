// A secret whose value is a word of the result's own structure (an outcome, a key of the run, a
// step or a journal record: `success`, `steps`, `name`, ...) masks the DATA that holds it, never
// the result's envelope: the run passes as it passed, every report is written and valid, the
// journal renders the same outcome, and no channel shows the secret's other values.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { draft2020, junitProblems } from '../helpers/schemas.ts';
import { assertClean } from '../helpers/secrets.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const WORDS = [
  'success',
  'failure',
  'skipped',
  'outcome',
  'name',
  'inputs',
  'steps',
  'counts',
  'result',
  'run',
  'key',
  't',
  'at',
];

const PIPELINE = `version: 1
name: t6
vars: { creds: "\${{ fromJSON(secrets.CREDS) }}" }
steps:
  - name: "as \${{ vars.creds.user }}"
    uses: assert
    with: { that: true }
`;

/** A rollout's: its result (journal and reports) and each wave's record. */
const ROLLOUT_WORDS = ['waves', 'wave', 'over', 'values', 'done', 'budget', 'failed', 'uses'];

const ROLLOUT = `version: 1
name: t7
vars: { creds: "\${{ fromJSON(secrets.CREDS) }}" }
rollout:
  over: site
  waves: [[s-1], rest]
steps:
  - name: "as \${{ vars.creds.user }} \${{ matrix.site }}"
    uses: assert
    matrix: { site: [s-1, s-2, s-3] }
    with: { that: true }
`;

const valid = draft2020('schema/report.schema.json');

type Report = { outcome: string; counts: Record<string, number>; steps: { name: string; outcome: string }[] };

/** Every report of `prefix` in `dir`: written, valid, and the run's outcome. */
async function checkReports(dir: string, prefix: string, word: string, steps: number): Promise<Report> {
  for (const ext of ['json', 'xml', 'html', 'md'])
    assert.ok(existsSync(join(dir, `${prefix}.${ext}`)), `${word}: ${prefix}.${ext} is written`);
  const report = JSON.parse(readFileSync(join(dir, `${prefix}.json`), 'utf8')) as Report;
  assert.ok(valid(report), `${word}: ${JSON.stringify(valid.errors)}`);
  assert.equal(await junitProblems(join(dir, `${prefix}.xml`)), undefined, `${word}: the JUnit report is valid`);
  assert.equal(report.outcome, 'success', word);
  assert.equal(report.counts.success, steps, word);
  assert.match(readFileSync(join(dir, `${prefix}.html`), 'utf8'), /<\/html>\s*$/, `${word}: the HTML report is whole`);
  return report;
}

const reports = (dir: string, prefix: string) => [
  '--report-json',
  join(dir, `${prefix}.json`),
  '--junit',
  join(dir, `${prefix}.xml`),
  '--html',
  join(dir, `${prefix}.html`),
  '--summary',
  join(dir, `${prefix}.md`),
];

test('a string of a JSON secret equal to a word of the result (success, steps, name, key, waves, ...) leaves every report and the journal whole', async () => {
  const cases = [
    ...WORDS.map((word) => ({ word, pipeline: PIPELINE, steps: 1 })),
    ...ROLLOUT_WORDS.map((word) => ({ word, pipeline: ROLLOUT, steps: 3 })),
  ];
  for (const { word, pipeline, steps } of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-structure-'));
    const file = join(dir, 't6.yml');
    writeFileSync(file, pipeline);
    const creds = JSON.stringify({ user: 'deployer', x: word });
    const env = { CREDS: creds };
    const journal = join(dir, 'j.jsonl');
    const run = await runCli(['run', file, '--emulator', '--journal', journal, ...reports(dir, 'run')], { env });
    assert.equal(run.code, 0, `${word}: ${run.stdout}${run.stderr}`);
    const report = await checkReports(dir, 'run', word, steps);
    // The step's name was made from the secret: data, masked as text.
    assert.match(report.steps[0]!.name, /^as \*\*\*( s-1)?$/, word);
    const again = await runCli(['report', journal, ...reports(dir, 'again')], { env });
    assert.equal(again.code, 0, `${word}: ${again.stdout}${again.stderr}`);
    await checkReports(dir, 'again', word, steps);
    const channels: [string, string][] = [
      ['run stdout', run.stdout + run.stderr],
      ['report stdout', again.stdout + again.stderr],
      ...readdirSync(dir)
        .filter((name) => name !== 't6.yml')
        .map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8')]),
    ];
    for (const [channel, text] of channels) assertClean(`${word}: ${channel}`, text, ['deployer', creds]);
  }
});

test('a secret equal to a matrix value or a step name is still masked there (data), and the run stays whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-structure-'));
  const file = join(dir, 'data.yml');
  writeFileSync(
    file,
    `version: 1
name: data
steps:
  - name: "\${{ secrets.TOKEN }}"
    uses: assert
    with: { that: "\${{ secrets.TOKEN == 'success' }}" }
  - name: "check \${{ matrix.word }}"
    uses: assert
    matrix: { word: [success, plain] }
    with: { that: true }
`,
  );
  const run = await runCli(['run', file, '--emulator', ...reports(dir, 'run')], { env: { TOKEN: 'success' } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Omit<Report, 'steps'> & {
    matrix: Record<string, string[]>;
    steps: { name: string; outcome: string; matrix: Record<string, string> | null }[];
  };
  assert.ok(valid(report), JSON.stringify(valid.errors));
  assert.equal(report.outcome, 'success');
  assert.deepEqual(
    report.steps.map((s) => [s.name, s.outcome, s.matrix]),
    [
      ['***', 'success', null],
      ['check ***', 'success', { word: '***' }],
      ['check plain', 'success', { word: 'plain' }],
    ],
  );
  assert.deepEqual(report.matrix, { word: ['***', 'plain'] });
  assert.equal(report.counts.success, 3);
});

test('the action with a secret equal to "success": exit 0 and its outcome output success', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: {
      'p.yml': `version: 1
name: t6
steps:
  - name: "as \${{ secrets.TOKEN }}"
    uses: assert
    with: { that: true }
`,
    },
    inputs: { pipeline: 'p.yml', url, username: 'admin', password: 'admin' },
    env: { TOKEN: 'success' },
  });
  assert.equal(run.code, ExitCode.ok, JSON.stringify({ failed: run.failed, errors: run.errors }));
  assert.equal(run.outputs.outcome, 'success');
  assert.deepEqual(run.failed, []);
  const report = JSON.parse(readFileSync(run.outputs.report!, 'utf8')) as Report;
  assert.ok(valid(report), JSON.stringify(valid.errors));
  assert.equal(report.outcome, 'success');
});

/** A word of a plan's steps and calls (plan --live --out, run --plan, plan --expect). */
const PLAN_WORDS = ['calls', 'state', 'steps', 'path', 'method', 'key', 'text', 'live'];

const PLANNED = `version: 1
name: t8
vars: { creds: "\${{ fromJSON(secrets.CREDS) }}" }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ vars.creds.token }}" }
steps:
  - id: alerts
    name: "alerts as \${{ vars.creds.user }}"
    uses: monitoring/alerts
    with: { fail-on: critical }
`;
const WRITES = `  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001], message: "by \${{ vars.creds.user }}" }
`;

test('a secret equal to a word of the plan (calls, path, state, ...) leaves the live plan, its saved form and the drift audit whole', async () => {
  for (const word of PLAN_WORDS) {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-structure-'));
    writeFileSync(join(dir, 'p.yml'), PLANNED + WRITES);
    writeFileSync(join(dir, 'audit.yml'), PLANNED);
    const creds = JSON.stringify({ user: 'deployer', token: 'prod-token', x: word });
    const env = { CREDS: creds };
    const saved = join(dir, 'plan.json');
    const plan = await runCli(
      ['plan', join(dir, 'p.yml'), '--emulator', '--live', '--out', saved, '--summary', join(dir, 'plan.md')],
      { env },
    );
    assert.equal(plan.code, 0, `${word}: ${plan.stdout}${plan.stderr}`);
    const run = await runCli(['run', join(dir, 'p.yml'), '--emulator', '--plan', saved], { env });
    assert.equal(run.code, 0, `${word}: ${run.stdout}${run.stderr}`);
    const audit = await runCli(
      ['plan', join(dir, 'audit.yml'), '--emulator', '--live', '--expect', '--json', join(dir, 'audit.json')],
      { env },
    );
    assert.equal(audit.code, 0, `${word}: ${audit.stdout}${audit.stderr}`);
    const channels: [string, string][] = [
      ['plan', plan.stdout + plan.stderr],
      ['run', run.stdout + run.stderr],
      ['audit', audit.stdout + audit.stderr],
      ...['plan.json', 'plan.md', 'audit.json'].map((name): [string, string] => [
        name,
        readFileSync(join(dir, name), 'utf8'),
      ]),
    ];
    for (const [channel, text] of channels) assertClean(`${word}: ${channel}`, text, ['deployer', 'prod-token', creds]);
  }
});

test('a secret equal to a word of the fleet lease a run held (holder, takeover) leaves its record in every report whole', async () => {
  for (const word of ['holder', 'takeover', 'waitedMs']) {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-structure-'));
    const file = join(dir, 't6.yml');
    writeFileSync(file, PIPELINE);
    const creds = JSON.stringify({ user: 'deployer', x: word });
    mkdirSync(join(dir, 'store'));
    const store = `file://${join(dir, 'store')}`;
    const run = await runCli(
      ['run', file, '--emulator', '--store', store, '--lease', 'fleet', ...reports(dir, 'run')],
      {
        env: { CREDS: creds },
      },
    );
    assert.equal(run.code, 0, `${word}: ${run.stdout}${run.stderr}`);
    const report = (await checkReports(dir, 'run', word, 1)) as Report & { lease: { name: string; holder: string } };
    assert.equal(report.lease.name, 'fleet', word);
    assert.match(readFileSync(join(dir, 'run.md'), 'utf8'), /fleet/, word);
  }
});

test("a secret equal to a word of a write's window and its override (reason, verdict, frozen) leaves the run, its reports and its journal whole", async () => {
  for (const word of ['reason', 'verdict', 'frozen', 'override']) {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-structure-'));
    const file = join(dir, 'p.yml');
    writeFileSync(
      file,
      `version: 1
vars: { creds: "\${{ fromJSON(secrets.CREDS) }}" }
freezes:
  quarter-close:
    zone: UTC
    dates: [{ from: 2026-03-28, to: 2026-04-02 }]
override-freeze: [alice]
steps:
  - id: clear
    name: "clear as \${{ vars.creds.user }}"
    uses: transaction-log/clear
    expected: 40m
`,
    );
    const env = { CREDS: JSON.stringify({ user: 'deployer', x: word }), USER: 'alice' };
    const journal = join(dir, 'j.jsonl');
    const args = ['--clock', '2026-03-30T01:05:00Z', '--override-freeze', '--reason', 'INC-42 hotfix'];
    const run = await runCli(['run', file, '--emulator', ...args, '--journal', journal, ...reports(dir, 'run')], {
      env,
    });
    assert.equal(run.code, 0, `${word}: ${run.stdout}${run.stderr}`);
    const report = (await checkReports(dir, 'run', word, 1)) as Report & {
      steps: { window: { verdict: string; override: Record<string, string> } }[];
    };
    assert.equal(report.steps[0]!.window.verdict, 'frozen', word);
    assert.deepEqual(Object.keys(report.steps[0]!.window.override), ['by', 'reason', 'as'], word);
    const again = await runCli(['report', journal, ...reports(dir, 'again')], { env });
    assert.equal(again.code, 0, `${word}: ${again.stdout}${again.stderr}`);
    await checkReports(dir, 'again', word, 1);
  }
});
