// `enginectl run`, `plan`, `matrix` and `schema` as processes.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';
import { STEP_NAMES } from '../../src/steps/registry.ts';

const TOKENS = {
  PROD_TOKEN: 'prod-token',
  STAGING_TOKEN: 'staging-token',
  PROD_DEPLOY_PASSWORD: 'deploy-pass',
  QA_TOKEN: 'qa-token-123',
};

test('the README main command (npm run demo) runs the demo pipeline on the emulator and exits 0', async () => {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'demo'], { env: cleanEnv() });
  assert.match(stdout, /^running "Release 2026\.11 \(demo\)" \(9 steps\) against the embedded emulator/m);
  for (const step of [
    'No critical alerts',
    'Engines online',
    'Drain user sessions',
    'Clear the transaction log',
    'Sync the replicas',
    'Reports and templates to production',
    'System update (target=staging)',
    'System update (target=prod)',
    'Every Engine runs the release',
    'Record the deployment',
  ]) {
    assert.match(stdout, new RegExp(`^✔ \\[\\d/9\\] ${step.replace(/[()]/g, '\\$&')}  `, 'm'), step);
  }
  assert.match(stdout, /waiting for at most 0 active session\(s\): 4 active; next check in 5m/);
  assert.match(stdout, /^pipeline "Release 2026\.11 \(demo\)": success in /m);
  assert.doesNotMatch(stdout, /prod-token|staging-token/, 'tokens are never printed');
  assert.ok(!stdout.includes('\u001b['), 'no colour when stdout is not a terminal');
});

test('each shipped pipeline ends as designed on the emulator', async () => {
  const expected: Record<string, [number, RegExp]> = {
    'pipelines/license-renewal.yml': [0, /✔ \[4\/4\] Licence valid for 30 days now .* day\(s\) left/],
    'pipelines/multi-target-release.yml': [
      0,
      /✔ \[4\/4\] Engines of the target run the release \(target=prod\) .* 2 online/,
    ],
    'pipelines/replication-nightly.yml': [0, /✔ \[2\/4\] Every replica took the changes/],
    'pipelines/update-with-cleanup.yml': [
      1,
      /✖ \[2\/4\] System update of QA[\s\S]*✔ \[3\/4\] Record the failure[\s\S]*- \[4\/4\] Record the success: skipped/,
    ],
  };
  for (const [file, [code, pattern]] of Object.entries(expected)) {
    const r = await runCli(['run', file, '--emulator'], { env: TOKENS });
    assert.equal(r.code, code, `${file}\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, pattern, file);
    assert.doesNotMatch(r.stdout, /ELC1\.|qa-token-123|deploy-pass/, `${file}: no secret printed`);
  }
});

test('--only runs one matrix instance, as a CI job would', async () => {
  const r = await runCli(['run', 'pipelines/multi-target-release.yml', '--emulator', '--only', 'target=prod'], {
    env: TOKENS,
  });
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /System update \(target=prod\)/);
  assert.match(r.stdout, /✔ \[4\/4\] Engines of the target run the release \(target=prod\)/);
  assert.doesNotMatch(r.stdout, /target=staging/);
});

test('--only with a key given twice runs either value; --skip leaves instances out; the reports say what the run was limited to', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-select-'));
  const two = await runCli([
    'run',
    'pipelines/three-site-release.yml',
    '--emulator',
    '--only',
    'site=test',
    '--only',
    'site=prod',
    '--report-json',
    join(dir, 'two.json'),
    '--summary',
    join(dir, 'two.md'),
  ]);
  assert.equal(two.code, 0, two.stdout + two.stderr);
  const sites = (file: string) =>
    (
      JSON.parse(readFileSync(join(dir, file), 'utf8')) as { steps: { matrix: { site: string } | null }[] }
    ).steps.flatMap((s) => (s.matrix ? [s.matrix.site] : []));
  assert.deepEqual(sites('two.json'), ['test', 'prod', 'test', 'prod', 'test', 'prod']);
  const skip = await runCli([
    'run',
    'pipelines/three-site-release.yml',
    '--emulator',
    '--skip',
    'site=staging',
    '--report-json',
    join(dir, 'skip.json'),
    '--summary',
    join(dir, 'skip.md'),
    '--junit',
    join(dir, 'skip.xml'),
    '--html',
    join(dir, 'skip.html'),
  ]);
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);
  assert.deepEqual(sites('skip.json'), ['test', 'prod', 'test', 'prod', 'test', 'prod']);
  // Every report and the terminal say which instances the run was limited to.
  assert.match(two.stdout, /limited to: site=test or site=prod/);
  assert.match(skip.stdout, /limited to: without site=staging/);
  assert.deepEqual((JSON.parse(readFileSync(join(dir, 'skip.json'), 'utf8')) as { selection: unknown }).selection, {
    only: {},
    skip: { site: ['staging'] },
  });
  assert.match(readFileSync(join(dir, 'two.md'), 'utf8'), /limited to: site=test or site=prod/);
  for (const f of ['skip.md', 'skip.xml', 'skip.html'])
    assert.match(readFileSync(join(dir, f), 'utf8'), /without site=staging/, f);
  // A --skip that names nothing is refused, as --only is.
  const typo = await runCli(['run', 'pipelines/three-site-release.yml', '--emulator', '--skip', 'site=stagin']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /--skip site=stagin: no instance has site=stagin[\s\S]*did you mean site=staging\?/);
});

function writePipeline(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-')), 'p.yml');
  writeFileSync(file, yaml);
  return file;
}

const hangingPipeline = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
  - uses: transaction-log/clear
`;

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} during a long update aborts it, marks the rest cancelled and exits ${code}`, async (t) => {
    const { url, emulator } = await startEmulator(t, { faults: [{ path: '/api/devops/v1/update/vfs', hang: true }] });
    const file = writePipeline(hangingPipeline);
    const reports = join(dirname(file), `reports-${signal}`);
    const child = spawn(
      process.execPath,
      [
        CLI,
        'run',
        file,
        '--report-json',
        join(reports, 'r.json'),
        '--junit',
        join(reports, 'r.xml'),
        '--summary',
        join(reports, 'r.md'),
        '--html',
        join(reports, 'r.html'),
      ],
      {
        env: cleanEnv({
          ENGINE_URL: url,
          ENGINE_USERNAME: 'admin',
          ENGINE_PASSWORD: 'admin',
          PROD_TOKEN: 'prod-token',
        }),
      },
    );
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    // Once the update has reached the server, which never answers it: only the signal ends the run.
    await until(() => stdout.includes('▶ [1/2]') && emulator.count('POST', '/api/devops/v1/update/vfs') === 1);
    child.kill(signal);
    const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(exit, code);
    assert.match(
      stdout,
      /■ \[1\/2\] VFS update prod .*\n {4}error: cancelled after sending POST \/api\/devops\/v1\/update\/vfs: the request was sent; the server may have applied it/,
    );
    assert.match(stdout, /pipeline "p": cancelled in .*\(2 step run\(s\): 2 cancelled, 1 in doubt\)/);
    assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 0);
    // Every report is still written, with each step's true outcome.
    const report = JSON.parse(readFileSync(join(reports, 'r.json'), 'utf8')) as {
      outcome: string;
      steps: { outcome: string; error: { message: string } | null }[];
    };
    assert.equal(report.outcome, 'cancelled');
    assert.deepEqual(
      report.steps.map((s) => s.outcome),
      ['cancelled', 'cancelled'],
    );
    assert.match(readFileSync(join(reports, 'r.md'), 'utf8'), /^## ⏹️ p: cancelled/);
    assert.match(
      readFileSync(join(reports, 'r.xml'), 'utf8'),
      /<failure type="IN_DOUBT" message="cancelled after sending POST \/api\/devops\/v1\/update\/vfs: the request was sent; the server may have applied it"/,
    );
    assert.match(readFileSync(join(reports, 'r.html'), 'utf8'), /<title>p: cancelled<\/title>/);
  });
}

test('run writes every report asked for, on success and on failure; an unwritable path stops it before any call', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...TOKENS };
  const file = writePipeline(`version: 1
name: release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/system
    with: { target: prod }
  - uses: replication/sync
`);
  const dir = dirname(file);
  const flags = (name: string) => [
    '--report-json',
    join(dir, name, 'r.json'),
    '--junit',
    join(dir, name, 'r.xml'),
    '--summary',
    join(dir, name, 'r.md'),
    '--html',
    join(dir, name, 'r.html'),
  ];
  const ok = await runCli(['run', file, ...flags('ok')], { env });
  assert.equal(ok.code, 0, ok.stderr);
  for (const f of ['r.json', 'r.xml', 'r.md', 'r.html'])
    assert.match(ok.stdout, new RegExp(`report: .*ok/${f.replace('.', '\\.')}`));
  assert.match(readFileSync(join(dir, 'ok', 'r.md'), 'utf8'), /# System update of PROD on prod-db\.example\.com/);

  emulator.failReplication('REPLICA-2', 'disk full');
  const failed = await runCli(['run', file, ...flags('failed')], { env });
  assert.equal(failed.code, 1);
  const report = JSON.parse(readFileSync(join(dir, 'failed', 'r.json'), 'utf8')) as {
    outcome: string;
    counts: { failure: number };
  };
  assert.equal(report.outcome, 'failure');
  assert.equal(report.counts.failure, 1);

  const before = emulator.requests.length;
  const bad = await runCli(['run', file, '--junit', dir], { env });
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /^enginectl: --junit .*: cannot write there \(it is a directory\)\n {2}hint: choose a file in a directory this process can write; nothing was run/m,
  );
  assert.equal(emulator.requests.length, before, 'nothing was called');
});

test('plan and run --dry-run print each call with secrets masked, and make no request', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...TOKENS };
  for (const args of [
    ['plan', 'pipelines/demo.yml'],
    ['run', 'pipelines/demo.yml', '--dry-run'],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /no request is made/);
    assert.match(
      r.stdout,
      /\[7\/9\] System update \(target=prod\) \(update\/system\) on server default\n {4}matrix: max-parallel 2, fail-fast true\n {4}POST \/api\/devops\/v1\/update\/system\n {6}\{\n {8}"targetDBName": "PROD",\n {8}"targetServer": "prod-db\.example\.com",\n {8}"targetAuthToken": "\*\*\*"/,
    );
    assert.match(
      r.stdout,
      /"imessage": "<steps\.vfs\.outputs\.summary>; replicas synced with <steps\.sync\.outputs\.inserts> insert\(s\)"/,
    );
    assert.doesNotMatch(r.stdout, /prod-token|staging-token/);
  }
  assert.equal(emulator.requests.length, 0, 'the emulator received no request');
});

test("matrix prints a step's matrix as JSON for a CI job matrix", async () => {
  const demo = await runCli(['matrix', 'pipelines/demo.yml', '--emulator'], { env: TOKENS });
  assert.equal(demo.code, 0, demo.stderr);
  assert.deepEqual(JSON.parse(demo.stdout), { include: [{ target: 'staging' }, { target: 'prod' }] });
  const chosen = await runCli(['matrix', 'pipelines/multi-target-release.yml', '--step', 'vfs', '--emulator'], {
    env: TOKENS,
  });
  assert.equal(JSON.parse(chosen.stdout).include.length, 2);
  const none = await runCli(['matrix', 'pipelines/replication-nightly.yml', '--emulator']);
  assert.equal(none.code, 2);
});

test('matrix prints the shared matrix, without --step, when every step with a matrix has the same one', async () => {
  const sites = { include: [{ site: 'test' }, { site: 'staging' }, { site: 'prod' }] };
  for (const file of ['pipelines/three-site-release.yml', 'pipelines/fleet-rollout.yml']) {
    const r = await runCli(['matrix', file]);
    assert.equal(r.code, 0, `${file}: ${r.stderr}`);
    assert.deepEqual(JSON.parse(r.stdout), sites, file);
    assert.equal(r.stderr, '');
  }
  const targets = await runCli(['matrix', 'pipelines/multi-target-release.yml', '--emulator'], { env: TOKENS });
  assert.equal(targets.code, 0, targets.stderr);
  assert.deepEqual(JSON.parse(targets.stdout), { include: [{ target: 'staging' }, { target: 'prod' }] });
  // Steps with different matrices still need --step.
  const file = writePipeline(`version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: t }
  staging: { server: staging-db.example.com, database: STAGING, token: t }
steps:
  - id: a
    uses: update/vfs
    matrix: { target: [staging, prod] }
    with: { target: "\${{ matrix.target }}", files: [1001] }
  - uses: update/vfs
    matrix: { target: [prod] }
    with: { target: "\${{ matrix.target }}", files: [1001] }
`);
  const different = await runCli(['matrix', file]);
  assert.equal(different.code, 2);
  assert.match(
    different.stderr,
    /2 steps have a matrix, not the same one[\s\S]*hint: name one with --step: a, \(step 2 has no id\)/,
  );
});

test("matrix says when a step's matrix is more jobs than GitHub (256) or GitLab (200) run from one matrix; the JSON is printed all the same", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-matrix-jobs-'));
  const file = (n: number) => {
    const path = join(dir, `m${n}.yml`);
    writeFileSync(
      path,
      `version: 1\nsteps:\n  - uses: monitoring/alerts\n    id: gate\n    matrix: { site: [${Array.from({ length: n }, (_, i) => `s${i + 1}`).join(', ')}] }\n`,
    );
    return path;
  };
  const many = await runCli(['matrix', file(300)]);
  assert.equal(many.code, 0, many.stderr);
  assert.equal(JSON.parse(many.stdout).include.length, 300);
  assert.equal(
    many.stderr,
    "enginectl: warning: step gate's matrix is 300 jobs; a GitHub Actions job matrix runs at most 256, a GitLab parallel:matrix 200\n  hint: split the fleet across jobs: a job per wave or per part of the inventory, each with its --only\n",
  );
  const github = await runCli(['matrix', file(256)]);
  assert.equal(
    github.stderr,
    "enginectl: warning: step gate's matrix is 256 jobs; a GitLab parallel:matrix runs at most 200\n  hint: split the fleet across jobs: a job per wave or per part of the inventory, each with its --only\n",
  );
  const fits = await runCli(['matrix', file(200)]);
  assert.equal(fits.code, 0);
  assert.equal(fits.stderr, '');
});

test('matrix needs no secret and no server: it calls nothing (the job-matrix workflows run it before any secret is given)', async () => {
  // No ENGINE_URL, no password, none of the inventory's URLs or target tokens, no --emulator.
  const sites = await runCli(['matrix', 'pipelines/three-site-release.yml', '--step', 'engines']);
  assert.equal(sites.code, 0, sites.stderr);
  assert.deepEqual(JSON.parse(sites.stdout), { include: [{ site: 'test' }, { site: 'staging' }, { site: 'prod' }] });
  // The sites come from a var of the inventory (matrix: { site: ${{ vars.sites }} }); --var overrides it.
  const two = await runCli([
    'matrix',
    'pipelines/three-site-release.yml',
    '--step',
    'engines',
    '--var',
    'sites=[test, prod]',
  ]);
  assert.equal(two.code, 0, two.stderr);
  assert.deepEqual(JSON.parse(two.stdout), { include: [{ site: 'test' }, { site: 'prod' }] });
  const demo = await runCli(['matrix', 'pipelines/demo.yml']);
  assert.equal(demo.code, 0, demo.stderr);
  assert.deepEqual(JSON.parse(demo.stdout), { include: [{ target: 'staging' }, { target: 'prod' }] });
  // The file is still validated: a mistake is refused at its line.
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-matrix-')), 'broken.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: update/vfss\n    matrix: { t: [a] }\n');
  const broken = await runCli(['matrix', file]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /:3:\d+ .*update\/vfss/);
});

test('the committed schema/report.schema.json is what `enginectl schema --report` prints', async () => {
  const r = await runCli(['schema', '--report']);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8'),
    'run `npm run schema` and commit schema/report.schema.json',
  );
});

test('the committed schema/pipeline.schema.json is what `enginectl schema` prints', async () => {
  const r = await runCli(['schema']);
  assert.equal(r.code, 0);
  const committed = readFileSync(new URL('../../schema/pipeline.schema.json', import.meta.url), 'utf8');
  assert.equal(r.stdout, committed, 'run `npm run schema` and commit schema/pipeline.schema.json');
  // One variant per step type, chosen by its `uses` (if/then), with its inputs.
  const schema = JSON.parse(r.stdout) as {
    properties: { steps: { items: { allOf?: { then: { properties: { with: unknown } } }[] } } };
  };
  const variants = schema.properties.steps.items.allOf ?? [];
  assert.equal(variants.length, STEP_NAMES.length, 'one variant per step type, with its inputs');
  assert.ok(variants.every((v) => v.then.properties.with));
});

test('run exits 2 on an invalid pipeline, before any request', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const file = writePipeline('version: 1\nsteps:\n  - uses: update/vfs\n    with: { target: nowhere, files: [1] }\n');
  const r = await runCli(['run', file], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /p\.yml:4:21 unknown target "nowhere"/);
  assert.equal(emulator.requests.length, 0);
});
