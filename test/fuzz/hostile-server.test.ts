// A hostile server: its update report, result messages, error bodies and JSON answers carry GitHub
// workflow commands, Azure logging commands, GitLab section markers, ANSI and OSC escapes, HTML
// and Markdown that would break out of the summary's <details> or run script, and several MB of
// text. None of it may be interpreted by a CI system, executed in the HTML report, make the JUnit
// file invalid, or push the job summary past its limit; through the CLI for every CI system and
// through the root action.
/* eslint-disable no-control-regex -- the suite looks for control characters on purpose */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Emulator } from '../../src/emulator/index.ts';
import { SUMMARY_LIMIT } from '../../src/report/markdown.ts';
import { runActionBundle } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { junitProblems } from '../helpers/schemas.ts';
import { assertInertLog } from '../helpers/inert-log.ts';

const VFS = '/api/devops/v1/update/vfs';

/** Every line says PWNED: if any reaches a command position, the test names it. */
const HOSTILE = [
  '::error file=x.yml,line=1::PWNED-GH-ERROR',
  '::set-output name=pwned::PWNED-GH-OUTPUT',
  '::stop-commands::PWNEDTOKEN',
  '::add-mask::PWNED-MASK',
  '##vso[task.setvariable variable=PWNED]PWNED-AZ-VAR',
  '##vso[task.complete result=Failed;]PWNED-AZ-COMPLETE',
  '##[error]PWNED-AZ-ERROR',
  'section_start:1:pwned[collapsed=true]\rPWNED-GITLAB',
  '\x1b[31mPWNED-ANSI\x1b[0m \x1b]8;;https://evil.example\x07PWNED-OSC\x1b]8;;\x07 \x1b[2J\x1b[1A',
  '</details></summary><script>alert("PWNED-SCRIPT")</script><img src=x onerror="alert(\'PWNED-IMG\')">',
  '<a href="javascript:alert(\'PWNED-HREF\')">x</a> [md](javascript:alert(\'PWNED-MDJS\')) <iframe src="https://evil.example"></iframe>',
  ']]><!-- PWNED-XML --><?xml-stylesheet href="evil"?>\u0000\u0008',
].join('\n');

/** A real vfs update answer of the emulator, with hostile text in every string (and 3 MB of report). */
function hostileUpdate(emulator: Emulator, options: { bulk: boolean; success: boolean }): string {
  const answer = emulator.handle({
    method: 'POST',
    path: VFS,
    query: new URLSearchParams(),
    headers: {
      authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      targetDBName: 'PROD',
      targetServer: 'prod-db.example.com',
      targetAuthToken: 'prod-token',
      files: [1001],
    }),
  });
  const result = JSON.parse(answer.body!) as Record<string, unknown>;
  result.report = `# Update of PROD\n\n${HOSTILE}\n\n${options.bulk ? 'PWNED-BULK '.repeat(300_000) : ''}\n`;
  result.messages = [HOSTILE];
  result.warnings = [{ code: '::warning::PWNED', message: HOSTILE }];
  result.success = options.success;
  if (!options.success) result.errors = [{ code: '::error::PWNED', message: HOSTILE }];
  return JSON.stringify(result);
}

const PIPELINE = `version: 1
name: "Hostile server"
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: system
    uses: update/system
    continue-on-error: true
    with: { target: prod }
  - id: sync
    uses: replication/sync
    continue-on-error: true
  - id: raw
    uses: api/request
    with: { path: /api/monitoring/v1/alerts }
`;

function hostileServer(emulator: Emulator) {
  emulator.faults.add({
    method: 'POST',
    path: VFS,
    status: 200,
    body: hostileUpdate(emulator, { bulk: true, success: true }),
    contentType: 'application/json',
  });
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    status: 200,
    body: hostileUpdate(emulator, { bulk: false, success: false }),
    contentType: 'application/json',
  });
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/replication/sync',
    status: 500,
    body: JSON.stringify({ status: 500, message: HOSTILE }),
    contentType: 'application/json',
  });
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    status: 200,
    body: JSON.stringify([{ text: HOSTILE }]),
    contentType: 'application/json',
  });
}

function assertSafeMarkdown(channel: string, markdown: string) {
  assert.ok(
    Buffer.byteLength(markdown) < SUMMARY_LIMIT,
    `${channel}: ${Buffer.byteLength(markdown)} bytes, over the summary limit`,
  );
  for (const tag of ['details', 'summary']) {
    assert.equal(
      (markdown.match(new RegExp(`<${tag}>`, 'g')) ?? []).length,
      (markdown.match(new RegExp(`</${tag}>`, 'g')) ?? []).length,
      `${channel}: the server closed a <${tag}>`,
    );
  }
  assert.doesNotMatch(markdown, /<(script|iframe|img|a\s|!--|\?)/i, `${channel}: live markup from the server`);
  assert.doesNotMatch(markdown, /(?<!\\)\]\(\s*javascript:/i, `${channel}: a live Markdown link to script`);
  assert.doesNotMatch(markdown, /[\x00-\x08\x0B-\x1F\x7F]/, `${channel}: a control character`);
  assert.doesNotMatch(markdown, /^::|^##vso\[/m, `${channel}: a command at the start of a line`);
}

function assertSafeHtml(html: string) {
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
  assert.doesNotMatch(
    html,
    /<script|<iframe|<img|<a href="javascript:|<[a-z][^>]*\son\w+\s*=/i,
    'the HTML report runs nothing the server sent',
  );
  assert.match(html, /&lt;script&gt;alert\(&quot;PWNED-SCRIPT&quot;\)/, "the server's markup is shown as text");
  assert.doesNotMatch(html, /\x1b|\x00/, 'no control characters');
}

async function assertValidJunit(path: string) {
  assert.doesNotMatch(
    readFileSync(path, 'utf8'),
    /[\x00-\x08\x0B\x0C\x0E-\x1F]/,
    'JUnit holds no character XML 1.0 forbids',
  );
  assert.equal(await junitProblems(path), undefined, 'valid against junit-10.xsd');
}

for (const ci of ['github', 'azure', 'gitlab', 'jenkins', 'plain'] as const) {
  test(`CLI --ci ${ci}: the hostile server's text is inert in the log, the summary, HTML, JUnit and outputs`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    hostileServer(emulator);
    const dir = mkdtempSync(join(tmpdir(), `enginectl-hostile-${ci}-`));
    writeFileSync(join(dir, 'p.yml'), PIPELINE);
    const at = (f: string) => join(dir, f);
    writeFileSync(at('step-summary.md'), '');
    const env: Record<string, string> = {
      ENGINE_URL: url,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      GITHUB_STEP_SUMMARY: at('step-summary.md'),
      AGENT_TEMPDIRECTORY: dir,
    };
    const r = await runCli(
      [
        'run',
        at('p.yml'),
        '--ci',
        ci,
        '--report-json',
        at('r.json'),
        '--junit',
        at('r.xml'),
        '--summary',
        at('r.md'),
        '--html',
        at('r.html'),
        '--dotenv',
        at('out.env'),
      ],
      { env },
    );
    // The sync's 500 is not its documented result array: in doubt, which continue-on-error does not let pass.
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /left a write in doubt/);
    const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as {
      steps: { outcome: string; result: { report?: string } | null }[];
    };
    assert.deepEqual(
      report.steps.map((s) => s.outcome),
      ['success', 'failure', 'failure', 'success'],
    );
    assert.ok(report.steps[0]!.result!.report!.length > 3_000_000, 'the full server report is kept in the JSON report');
    assertInertLog('stdout', r.stdout);
    assertInertLog('stderr', r.stderr);
    assertSafeMarkdown('--summary', readFileSync(at('r.md'), 'utf8'));
    if (ci === 'github') assertSafeMarkdown('GITHUB_STEP_SUMMARY', readFileSync(at('step-summary.md'), 'utf8'));
    assertSafeHtml(readFileSync(at('r.html'), 'utf8'));
    await assertValidJunit(at('r.xml'));
    const dotenv = readFileSync(at('out.env'), 'utf8');
    for (const line of dotenv.split('\n').filter(Boolean))
      assert.match(
        line,
        /^[A-Z][A-Z0-9_]*=/,
        `every dotenv line is one NAME=VALUE: ${JSON.stringify(line.slice(0, 120))}`,
      );
    assert.ok(statSync(at('r.md')).size < SUMMARY_LIMIT);
  });
}

test("root action: the hostile server's text is inert in the log, annotations, summary and outputs", async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostileServer(emulator);
  const run = await runActionBundle(t, {
    action: '.',
    files: { 'p.yml': PIPELINE },
    inputs: { pipeline: 'p.yml', url, username: 'admin', password: 'admin' },
  });
  // The sync's 500 is not its documented result array: in doubt, which continue-on-error does not let pass.
  assert.equal(run.code, 1, run.stdout.slice(-2000));
  assertInertLog('action stdout', run.stdout);
  assertSafeMarkdown('job summary', run.summary);
  // Step outputs are heredocs with a random delimiter: the server's text cannot end one early.
  assert.deepEqual(
    Object.keys(run.outputs).sort(),
    ['journal', 'outcome', 'outputs', 'report', 'run-id'].filter((k) => k in run.outputs).sort(),
  );
  assert.ok(!Object.keys(run.outputs).some((k) => /pwned/i.test(k)), `outputs: ${Object.keys(run.outputs).join(', ')}`);
});
