// What the action leaves on GitHub stays within what GitHub takes, on every path, not only a
// run's: a job summary of at most 1 MiB (GitHub refuses a larger one whole), a PR comment of at
// most 65,536 characters, and at most 10 error and 10 warning annotations a step (GitHub drops the
// rest unsaid): the first shown, the others counted. An invalid pipeline of thousands of findings,
// a dry run and a live plan of thousands of instances.
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionBundle, startGitHubApi } from '../helpers/action.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, type InProcessRun } from '../helpers/toolkit.ts';

const SUMMARY_LIMIT = 1024 * 1024;
const COMMENT_LIMIT = 65_536;

/** Invalid: each of `count` steps of an unknown type, a finding each. */
function invalid(count: number): string {
  const steps = Array.from({ length: count }, (_, i) => `  - { uses: nope/x${i}, name: "${'A'.repeat(200)}${i}" }`);
  return `version: 1\nname: big\nsteps:\n${steps.join('\n')}\n`;
}

/** A matrix step of `count` instances, each a call with a message of its own. */
function matrix(count: number): string {
  const files = Array.from({ length: count }, (_, i) => 1000 + i).join(', ');
  return `version: 1
name: dry
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    name: VFS \${{ matrix.file }}
    uses: update/vfs
    matrix: { file: [${files}] }
    with: { target: prod, files: ["\${{ matrix.file }}"], message: "release of file \${{ matrix.file }}: ${'x'.repeat(200)}" }
`;
}

function assertAnnotations(run: InProcessRun): void {
  // setFailed is an error annotation too.
  assert.ok(run.errors.length + run.failed.length <= 10, `${run.errors.length} errors, ${run.failed.length} failures`);
  assert.ok(run.warnings.length <= 10, `${run.warnings.length} warnings`);
}

test('an invalid pipeline of 3,000 findings: at most 10 error annotations (the rest counted), a summary under 1 MiB and a log that names the first findings and counts the rest', async () => {
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'big.yml': invalid(3000) },
    inputs: { pipeline: 'big.yml', url: 'https://engine.example.com' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assertAnnotations(run);
  assert.match(run.errors.at(-1)!.message, /^2992 more errors are not annotated \(GitHub shows 10 of a step\)/);
  assert.ok(Buffer.byteLength(run.summary) <= SUMMARY_LIMIT, `summary: ${Buffer.byteLength(run.summary)} bytes`);
  const log = run.log.join('\n');
  assert.ok(Buffer.byteLength(log) <= 256 * 1024, `log: ${Buffer.byteLength(log)} bytes`);
  for (const text of [log, run.summary]) {
    assert.match(text, /big\.yml:4:\d+ /, 'the first finding is shown');
    assert.match(text, /2950 more problem\(s\) not shown here: enginectl validate big\.yml lists every one/);
    assert.match(text, /3000 problem\(s\) in big\.yml/);
  }
});

test('dry-run: true over 4,000 instances: a summary under 1 MiB and a PR comment under 65,536 characters, each saying it was cut', async (t) => {
  const github = await startGitHubApi(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'dry.yml': matrix(4000) },
    inputs: { pipeline: 'dry.yml', url: 'https://engine.example.com', 'dry-run': 'true', 'pr-comment': 'true' },
    env: { PROD_TOKEN: 'prod-token-xyz' },
    event: { pull_request: { number: 5 } },
    githubApi: github.url,
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  assertAnnotations(run);
  assert.equal(github.comments.length, 1, JSON.stringify(run.warnings));
  const comment = github.comments[0]!.body;
  assert.ok(comment.length <= COMMENT_LIMIT, `comment: ${comment.length} characters`);
  assert.ok(Buffer.byteLength(run.summary) <= SUMMARY_LIMIT, `summary: ${Buffer.byteLength(run.summary)} bytes`);
  for (const text of [run.summary, comment]) {
    assert.match(text, /dry run/);
    assert.match(text, /was cut at \d+ KiB/);
    assert.equal((text.match(/^```/gm) ?? []).length % 2, 0, 'its code fence is closed');
  }
});

test('dry-run: live over 1,500 instances: a summary under 1 MiB and a PR comment under 65,536 characters, each saying it was cut', async (t) => {
  const { url } = await startEmulator(t);
  const github = await startGitHubApi(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'live.yml': matrix(1500).replace('name: VFS', `name: ${'Long name of the step '.repeat(30)}VFS`) },
    inputs: {
      pipeline: 'live.yml',
      url,
      username: 'admin',
      password: 'admin',
      'dry-run': 'live',
      'pr-comment': 'true',
    },
    env: { PROD_TOKEN: 'prod-token-xyz' },
    event: { pull_request: { number: 5 } },
    githubApi: github.url,
  });
  assertAnnotations(run);
  assert.equal(github.comments.length, 1, JSON.stringify(run.warnings));
  const comment = github.comments[0]!.body;
  assert.ok(comment.length <= COMMENT_LIMIT, `comment: ${comment.length} characters`);
  assert.ok(Buffer.byteLength(run.summary) <= SUMMARY_LIMIT, `summary: ${Buffer.byteLength(run.summary)} bytes`);
  for (const text of [run.summary, comment]) {
    assert.match(text, /live plan/);
    assert.match(text, /was cut at \d+ KiB/);
  }
});

test('a run of 30 failed instances and 30 let pass by continue-on-error: at most 10 error and 10 warning annotations, the others counted', async (t) => {
  const { url } = await startEmulator(t);
  const matrix = `matrix: { n: [${Array.from({ length: 30 }, (_, i) => i).join(', ')}] }`;
  const pipeline = `version: 1
steps:
  - name: Let pass \${{ matrix.n }}
    uses: api/request
    continue-on-error: true
    ${matrix}
    with: { path: "/api/nope/\${{ matrix.n }}" }
  - name: Fail \${{ matrix.n }}
    uses: api/request
    fail-fast: false
    ${matrix}
    with: { path: "/api/nope/\${{ matrix.n }}" }
`;
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'failing.yml': pipeline },
    inputs: { pipeline: 'failing.yml', url, username: 'admin', password: 'admin' },
  });
  assert.equal(run.code, ExitCode.failed);
  assertAnnotations(run);
  assert.match(run.errors.at(-1)!.message, /^22 more errors are not annotated/);
  assert.match(run.warnings.at(-1)!.message, /^21 more warnings are not annotated/);
  for (let n = 0; n < 30; n++)
    assert.ok(
      run.log.some((l) => l.includes(`GET /api/nope/${n} on`)),
      `instance ${n} is in the log`,
    );
});

test('the action bundle counts what $GITHUB_STEP_SUMMARY holds already: a summary fitted in what is left, none added past 1 MiB', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-step-summary-'));
  for (const [held, said] of [
    [
      900 * 1024,
      /job summary: \$GITHUB_STEP_SUMMARY held 900 KiB already: this summary was fitted in the \d+ KiB left/,
    ],
    [
      SUMMARY_LIMIT - 200,
      /::warning title=enginectl::job summary: \$GITHUB_STEP_SUMMARY held 1023 KiB already, of GitHub's 1024 KiB: this run's summary is left out/,
    ],
  ] as const) {
    const summary = join(dir, `summary-${held}.md`);
    writeFileSync(summary, `${'y'.repeat(held - 1)}\n`);
    const run = await runActionBundle(t, {
      action: '.',
      files: { 'dry.yml': matrix(4000) },
      inputs: { pipeline: 'dry.yml', url: 'https://engine.example.com', 'dry-run': 'true' },
      env: { PROD_TOKEN: 'prod-token-xyz', GITHUB_STEP_SUMMARY: summary },
    });
    assert.equal(run.code, ExitCode.ok, run.stdout + run.stderr);
    const size = statSync(summary).size;
    assert.ok(size <= SUMMARY_LIMIT, `${held}: $GITHUB_STEP_SUMMARY is ${size} bytes`);
    assert.match(run.stdout, said);
  }
});
