// The CLI under simulated GitLab CI, Azure Pipelines and Jenkins environments: the exact
// CI-specific lines and files, and a hostile server whose error text holds GitHub workflow
// commands, Azure logging commands and GitLab section markers, which come out inert.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { neutralise } from '../../src/text/neutralise.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { LICENSE_CREATE_WITH } from '../helpers/run.ts';
import { junitProblems } from '../helpers/schemas.ts';

const HOSTILE =
  '::error::pwned ##vso[task.complete result=Succeeded;]ok \x1b[0Ksection_start:1:evil\r\x1b[0Kfake \u009d0;title\u009c \u0090dcs\u009c \u009epm\u009f \u009b2J';

const PIPELINE = `version: 1
name: nightly
steps:
  - id: clear
    name: Clear the log
    uses: transaction-log/clear
  - id: lic
    name: New licence
    uses: licensing/create
${LICENSE_CREATE_WITH}  - id: sync
    name: Sync the replicas
    uses: replication/sync
`;

async function runUnder(t: TestContext, ci: Record<string, string>, extra: (dir: string) => string[] = () => []) {
  const { url, emulator } = await startEmulator(t);
  emulator.failReplication('REPLICA-2', HOSTILE);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ci-'));
  const file = join(dir, 'nightly.yml');
  writeFileSync(file, PIPELINE);
  const r = await runCli(['run', file, '--junit', join(dir, 'junit.xml'), ...extra(dir)], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...ci },
  });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(await junitProblems(join(dir, 'junit.xml')), undefined, 'JUnit valid against junit-10.xsd');
  return { ...r, dir, file, lines: r.stdout.split('\n') };
}

function assertInert(stdout: string) {
  assert.ok(!stdout.includes('::error::pwned'), 'no GitHub command from the server');
  assert.ok(!stdout.includes('##vso[task.complete result=Succeeded;]ok'), 'no Azure command from the server');
  assert.ok(!stdout.includes('section_start:1:evil'), 'no GitLab section from the server');
  assert.ok(!stdout.includes('\r\x1b[0Kfake'), 'no carriage return or escape from the server');
  assert.doesNotMatch(stdout, /[\u0080-\u009f]/, 'no C1 control (OSC, DCS, PM, APC, CSI, ST) from the server');
  assert.ok(stdout.includes(neutralise(HOSTILE)), 'the server text is shown, made inert');
}

const ESC = '\x1b';

test('GitLab CI: a collapsed section per step, JUnit, outputs as a dotenv file, server text inert', async (t) => {
  const r = await runUnder(t, { GITLAB_CI: 'true', CI: 'true' }, (dir) => [
    '--dotenv',
    join(dir, 'outputs.env'),
    '--summary',
    join(dir, 'summary.md'),
  ]);
  const starts = r.lines.filter((l) => l.includes('section_start:'));
  assert.equal(starts.length, 3);
  assert.match(
    starts[0]!,
    new RegExp(
      `^${ESC}\\[0Ksection_start:\\d{10}:step_0_clear_the_log\\[collapsed=true\\]\\r${ESC}\\[0K\\[1/3\\] Clear the log \\(transaction-log/clear\\)$`,
    ),
  );
  assert.match(r.stdout, new RegExp(`^${ESC}\\[0Ksection_end:\\d{10}:step_2_sync_the_replicas\\r${ESC}\\[0K$`, 'm'));
  assert.equal(
    readFileSync(join(r.dir, 'outputs.env'), 'utf8'),
    // GitLab reads NAME=VALUE with no quote handling: values are written raw.
    [
      'CLEAR_OUTCOME=success',
      'CLEAR_STATUS=200',
      'LIC_OUTCOME=success',
      'LIC_CODE=***',
      'SYNC_OUTCOME=failure',
      'SYNC_SUCCEEDED=1',
      'SYNC_FAILED=1',
      'SYNC_INSERTS=1',
      'SYNC_UPDATES=1',
      'SYNC_DELETES=0',
      '',
    ].join('\n'),
  );
  assert.match(readFileSync(join(r.dir, 'summary.md'), 'utf8'), /^## ❌ nightly: failure/);
  assert.doesNotMatch(r.stdout, /##vso|::group::/);
  assertInert(r.stdout);
});

test('Azure Pipelines: groups, logissue on the step line, setvariable (secret marked), uploadsummary, complete', async (t) => {
  const r = await runUnder(t, { TF_BUILD: 'True', AGENT_TEMPDIRECTORY: tmpdir() });
  assert.ok(r.lines.includes('##[group][1/3] Clear the log (transaction-log/clear)'));
  assert.equal(r.lines.filter((l) => l === '##[endgroup]').length, 3);
  const issue = r.lines.find((l) => l.startsWith('##vso[task.logissue'))!;
  assert.equal(
    issue,
    `##vso[task.logissue type=error;sourcepath=${r.file};linenumber=16;columnnumber=5;]Sync the replicas: replication failed for REPLICA-2 (${neutralise(HOSTILE).replace(/%/g, '%AZP25')})`,
  );
  assert.ok(r.lines.includes('##vso[task.setvariable variable=CLEAR_STATUS;isoutput=true]200'));
  assert.ok(
    r.lines.includes('##vso[task.setvariable variable=LIC_CODE;isoutput=true;issecret=true]***'),
    'a secret output is marked secret (and its value never leaves enginectl)',
  );
  assert.ok(r.lines.includes('##vso[task.setvariable variable=SYNC_FAILED;isoutput=true]1'));
  const upload = r.lines.find((l) => l.startsWith('##vso[task.uploadsummary]'))!;
  assert.match(readFileSync(upload.slice('##vso[task.uploadsummary]'.length), 'utf8'), /^## ❌ nightly: failure/);
  assert.equal(
    r.lines.filter((l) => l.startsWith('##vso[task.complete')).join('\n'),
    '##vso[task.complete result=Failed;]enginectl: failure',
  );
  assert.ok(
    r.lines.some((l) => l.startsWith('##vso[task.setsecret]')),
    'secrets registered with the agent',
  );
  assertInert(r.stdout);
});

test('Jenkins: plain sections, JUnit, exit code; no command syntax of other CI systems', async (t) => {
  const r = await runUnder(t, { JENKINS_URL: 'https://jenkins.example.com/', BUILD_NUMBER: '7' });
  assert.ok(r.lines.includes('---- [1/3] Clear the log (transaction-log/clear) ----'));
  assert.ok(r.lines.includes('---- [3/3] Sync the replicas (replication/sync) ----'));
  assert.doesNotMatch(r.stdout, /##vso|##\[|::group::|section_start/);
  assertInert(r.stdout);
});

test('--ci forces a CI system, and an unknown name is exit 2 with the known ones', async (t) => {
  const r = await runUnder(t, {}, () => ['--ci', 'azure']);
  assert.ok(r.lines.includes('##[group][1/3] Clear the log (transaction-log/clear)'));
  const plain = await runUnder(t, { TF_BUILD: 'True' }, () => ['--ci', 'plain']);
  assert.doesNotMatch(plain.stdout, /##vso|##\[group/);
  assertInert(plain.stdout);
  const bad = await runCli(['run', 'pipelines/demo.yml', '--ci', 'travis']);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /--ci travis: not a CI system enginectl knows\n {2}hint: use one of github, gitlab, azure, jenkins, plain/,
  );
});

/** GitLab's dotenv rule: each line NAME=VALUE, split at the first =, the value as it is. */
function gitlabDotenv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

test('GitLab dotenv: values GitLab reads back as written, at most 20 variables, the rest left out and said, a multi-line value said only when asked for', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dotenv-'));
  const file = join(dir, 'wide.yml');
  writeFileSync(
    file,
    `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    uses: update/vfs
    matrix: { n: [1, 2, 3] }
    with: { target: prod, files: [1001], tracking-id: "T \${{ matrix.n }}" }
`,
  );
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', GITLAB_CI: 'true' };
  const r = await runCli(['run', file, '--dotenv', join(dir, 'all.env'), '--report-json', join(dir, 'r.json')], {
    env,
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const all = gitlabDotenv(readFileSync(join(dir, 'all.env'), 'utf8'));
  assert.equal(Object.keys(all).length, 20, "at most GitLab's default limit");
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    steps: { outputs: Record<string, unknown> }[];
  };
  assert.equal(all.VFS_1_SUMMARY, report.steps[0]!.outputs.summary, 'a value with spaces reads back as it was');
  // A value no one asked for that a dotenv file cannot carry (the update's Markdown report) is skipped silently.
  assert.doesNotMatch(r.stdout, /VFS_\d_REPORT/);
  assert.equal(all.VFS_1_REPORT, undefined);
  assert.match(
    r.stdout,
    /--dotenv: VFS_3_\w+ left out \(over GitLab's limit of 20 variables\); choose the ones later jobs read with --dotenv-var NAME/,
  );
  const chosen = await runCli(
    [
      'run',
      file,
      '--dotenv',
      join(dir, 'chosen.env'),
      '--dotenv-var',
      'VFS_1_SUCCESS',
      '--dotenv-var',
      'VFS_3_OUTCOME',
    ],
    { env },
  );
  assert.equal(chosen.code, 0);
  assert.deepEqual(gitlabDotenv(readFileSync(join(dir, 'chosen.env'), 'utf8')), {
    VFS_1_SUCCESS: 'true',
    VFS_3_OUTCOME: 'success',
  });
  assert.doesNotMatch(chosen.stdout, /left out/);
  // Asked for by name, it is said.
  const asked = await runCli(['run', file, '--dotenv', join(dir, 'asked.env'), '--dotenv-var', 'VFS_1_REPORT'], {
    env,
  });
  assert.equal(asked.code, 0);
  assert.match(
    asked.stdout,
    /--dotenv: VFS_1_REPORT left out \(a value with a line break, which a dotenv file cannot carry\)/,
  );
});

test("GitLab dotenv: the file stays within GitLab's 5 KiB (5,120 bytes), whose excess makes GitLab refuse the whole artifact; what does not fit is left out and said", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dotenv-size-'));
  const file = join(dir, 'long.yml');
  // Eight answers of 900 bytes each, read as the steps' `body` outputs: each under 1,024 characters, 7.2 KB together.
  writeFileSync(
    file,
    `version: 1
steps:
  - id: get
    uses: api/request
    matrix: { n: [1, 2, 3, 4, 5, 6, 7, 8] }
    with: { path: /api/monitoring/v1/alerts }
`,
  );
  const names = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `GET_${n}_BODY`);
  const r = await runCli(
    [
      'run',
      file,
      '--emulator',
      '--fault',
      `GET /api/monitoring/v1/alerts status=200 content-type=text/plain body=${'x'.repeat(900)}`,
      '--dotenv',
      join(dir, 'long.env'),
      ...names.flatMap((n) => ['--dotenv-var', n]),
    ],
    { env: { GITLAB_CI: 'true' } },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const text = readFileSync(join(dir, 'long.env'), 'utf8');
  assert.ok(Buffer.byteLength(text) <= 5120, `${Buffer.byteLength(text)} bytes: over GitLab's dotenv_size`);
  const written = Object.keys(gitlabDotenv(text));
  assert.deepEqual(written, names.slice(0, 5), 'the first ones asked for are kept, as many as fit');
  for (const name of names.slice(5))
    assert.match(
      r.stdout,
      new RegExp(`--dotenv: ${name} left out \\(over GitLab's limit of 5 KiB \\(5,120 bytes\\) for a dotenv file\\)`),
    );
});

test("GitLab dotenv: a value's length is counted as written, each `$` doubled: one that the doubling takes past 1,024 characters is left out and said", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dotenv-dollars-'));
  const file = join(dir, 'dollars.yml');
  writeFileSync(
    file,
    'version: 1\nsteps:\n  - id: get\n    uses: api/request\n    with: { path: /api/monitoring/v1/alerts }\n',
  );
  // 1,000 characters read, 1,030 written.
  const body = `${'x'.repeat(970)}${'$'.repeat(30)}`;
  const r = await runCli(
    [
      'run',
      file,
      '--emulator',
      '--fault',
      `GET /api/monitoring/v1/alerts status=200 content-type=text/plain body=${body}`,
      '--dotenv',
      join(dir, 'out.env'),
      '--dotenv-var',
      'GET_BODY',
    ],
    { env: { GITLAB_CI: 'true' } },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(Object.keys(gitlabDotenv(readFileSync(join(dir, 'out.env'), 'utf8'))), []);
  assert.match(r.stdout, /--dotenv: GET_BODY left out \(a value longer than 1024 characters as written/);
});
