// The CLI as an operator meets it: a closed log reader does not stop a deployment, a selection
// that selects nothing is refused, and the dry run shows values known only at run time as such.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

/** Runs the CLI with its stdout closed by the reader after the first chunk, as `| head -1` does. */
function runClosingStdout(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; first: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let first = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.once('data', (c) => {
    first = String(c);
    child.stdout.destroy();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, first })));
}

test('a closed stdout (run … | head) neither stops nor crashes the run: it goes on, writes its reports, exits with its code', async (t) => {
  const { url, emulator } = await startEmulator(t);
  // The steps after the first line take a moment, so their lines meet a closed pipe.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', latencyMs: 200 });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-epipe-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: transaction-log/clear
  - uses: update/vfs
    with: { target: prod, files: [1001] }
  - uses: replication/sync
`,
  );
  const r = await runClosingStdout(['run', file, '--report-json', join(dir, 'r.json'), '--junit', join(dir, 'r.xml')], {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
  });
  assert.match(r.first, /^running /);
  assert.equal(r.stderr, '', 'no stack trace, nothing on stderr');
  assert.equal(r.code, 0);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    outcome: string;
    steps: { outcome: string }[];
  };
  assert.deepEqual(
    report.steps.map((s) => s.outcome),
    ['success', 'success', 'success'],
  );
  assert.ok(existsSync(join(dir, 'r.xml')));
  assert.equal(emulator.requests.filter((q) => q.path.endsWith('/update/vfs')).length, 1, 'the update was sent, once');
});

test('enginectl schema | head -1 exits 0 without a stack trace', async () => {
  const r = await runClosingStdout(['schema'], {});
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
});

const MATRIX = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: deploy-pass }
vars: { files: [1001] }
steps:
  - uses: update/vfs
    matrix: { target: [prod, staging] }
    with: { target: "\${{ matrix.target }}", files: "\${{ vars.files }}" }
`;

test('--only and --var that select nothing are invalid input (exit 2), naming what exists; nothing is sent', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-only-'));
  const file = join(dir, 'm.yml');
  writeFileSync(file, MATRIX);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const cases: [string[], RegExp][] = [
    [
      ['--only', 'target=prd'],
      /--only target=prd: no instance has target=prd\n.*hint: did you mean target=prod\? values of target: prod, staging/,
    ],
    [
      ['--only', 'traget=prod'],
      /--only traget=prod: no matrix step has the key "traget"\n.*hint: did you mean --only target=…\?/,
    ],
    [
      ['--var', 'flies=[1002]'],
      /var "flies" \(--var\): the pipeline neither declares nor reads it\n.*hint: did you mean "files"\?/,
    ],
  ];
  for (const [flags, message] of cases) {
    for (const command of [
      ['run', file],
      ['run', file, '--dry-run'],
      ['plan', file],
    ]) {
      const r = await runCli([...command, ...flags], { env });
      assert.equal(r.code, 2, `${command.join(' ')} ${flags.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
  const ok = await runCli(['run', file, '--only', 'target=prod', '--var', 'files=[1002]'], { env });
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test('plan shows a value known only at run time as a readable placeholder, in paths too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-plan-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - id: find
    uses: classes/query
    with: { class: 12, where: { iname: jdoe } }
  - uses: classes/update
    with: { id: "\${{ steps.find.outputs.entities[0].ikey }}", fields: { iemailaddress: "\${{ steps.find.outputs.entities[0].iname }}@example.com" } }
`,
  );
  const r = await runCli(['plan', file, '--emulator']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /PATCH \/api\/classes\/v1\/entities\/<steps\.find\.outputs\.entities\[0\]\.ikey>\n/);
  assert.match(r.stdout, /"iemailaddress": "<steps\.find\.outputs\.entities\[0\]\.iname>@example\.com"/);
  assert.doesNotMatch(r.stdout, /null|%3C/);
});

test('a selection whose values each exist but that together leave no instance is refused (exit 2), naming what is left; nothing runs', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['--skip', 'site=test', '--skip', 'site=staging', '--skip', 'site=prod'],
      /^enginectl: the selection \(without site=test; without site=staging; without site=prod\) leaves no instance of any step with the key site: nothing would be deployed\n {2}hint: values of site: test, staging, prod; left after --only and --skip: none/m,
    ],
    [
      ['--only', 'site=prod', '--skip', 'site=prod'],
      /^enginectl: the selection \(site=prod; without site=prod\) leaves no instance of any step with the key site: nothing would be deployed\n/m,
    ],
  ];
  for (const [flags, message] of cases) {
    for (const command of [
      ['run', 'pipelines/three-site-release.yml', '--emulator'],
      ['run', 'pipelines/three-site-release.yml', '--emulator', '--dry-run'],
      ['plan', 'pipelines/three-site-release.yml', '--emulator'],
    ]) {
      const r = await runCli([...command, ...flags]);
      assert.equal(r.code, 2, `${command.join(' ')} ${flags.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stdout, /success|✔/, 'nothing ran');
    }
  }
  const one = await runCli([
    'run',
    'pipelines/three-site-release.yml',
    '--emulator',
    '--skip',
    'site=test',
    '--skip',
    'site=staging',
  ]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
});

test('a command whose output is its stdout (schema, matrix, api, plan) fails when stdout cannot be written (a full disk), never exit 0 with nothing written', async (t) => {
  const { url } = await startEmulator(t);
  const env = cleanEnv({ ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' });
  // A process (the emulator answers in this one meanwhile) whose stdout is /dev/full.
  const full = async (args: string[]) => {
    const out = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', out, 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (c) => (stderr += c));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { status, stderr };
    } finally {
      closeSync(out);
    }
  };
  for (const args of [
    ['schema'],
    ['matrix', 'pipelines/demo.yml'],
    ['api', 'GET', '/api/monitoring/v1/engines'],
    ['plan', 'pipelines/demo.yml', '--emulator'],
  ]) {
    const r = await full(args);
    assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /enginectl: cannot write the output to standard output \(ENOSPC\)/, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
  // A run's stdout is its log, not its product: a lost log never changes the run's exit code.
  const run = await full(['run', 'pipelines/demo.yml', '--emulator']);
  assert.equal(run.status, 0, run.stderr);
});
