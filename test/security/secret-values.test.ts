// Secrets are masked as values, before anything is rendered: whatever a secret's value is (`true`,
// `null`, `1001`, `ver`, one character, a token with HTML specials and two spaces), every report
// stays valid JSON and XML, and no form of the token reaches any channel, though the server echoes
// it plainly, URL-encoded, base64-encoded and HTML-escaped, in answers and in error bodies.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import type { Emulator } from '../../src/emulator/index.ts';
import { runActionBundle } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';
import { draft2020, junitProblems } from '../helpers/schemas.ts';

const TOKEN = `T0k<&'"  en-5e1`;
const API_PASSWORD = 'api pass  word';
const ODD = { S_TRUE: 'true', S_NULL: 'null', S_NUM: '1001', S_VER: 'ver', S_A: 'a' };

const PIPELINE = `version: 1
name: Odd secrets
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with:
      target: prod
      files: [1001]
      message: "t=\${{ secrets.S_TRUE }} n=\${{ secrets.S_NULL }} k=\${{ secrets.S_NUM }} v=\${{ secrets.S_VER }} a=\${{ secrets.S_A }}"
      tracking-id: version-check
  - id: json-error
    uses: update/system
    continue-on-error: true
    with: { target: prod, message: refused as JSON }
  - id: text-error
    uses: update/system
    continue-on-error: true
    with: { target: prod, message: refused as text }
`;

function hostile(emulator: Emulator, errors = true): void {
  emulator.users.push({ name: 'deployer', password: API_PASSWORD, scopes: new Set(ALL_SCOPES) });
  emulator.state.databases.find((d) => d.name === 'PROD')!.tokens.push(TOKEN);
  if (errors) {
    // Error bodies without a `message` field: JSON with another field, then plain text.
    emulator.faults.add({
      method: 'POST',
      path: '/api/devops/v1/update/system',
      status: 500,
      body: '{"error":"update refused"}',
      contentType: 'application/json',
      echoCredentials: true,
      times: 1,
    });
    emulator.faults.add({
      method: 'POST',
      path: '/api/devops/v1/update/system',
      status: 500,
      body: 'upstream   refused',
      contentType: 'text/plain',
      echoCredentials: true,
      times: 1,
    });
  }
  emulator.faults.add({ path: '/api/*', echoCredentials: true });
}

const ENV = { PROD_TOKEN: TOKEN, ...ODD };

type Checked = {
  steps: { id: string; outcome: string; inputs: Record<string, unknown>; error: { message: string } | null }[];
};

async function checkReports(dir: string, names: { json: string; junit: string }): Promise<Checked> {
  const report = JSON.parse(readFileSync(join(dir, names.json), 'utf8')) as Checked;
  const valid = draft2020('schema/report.schema.json');
  assert.ok(valid(report), JSON.stringify(valid.errors));
  assert.equal(
    await junitProblems(join(dir, names.junit)),
    undefined,
    'the JUnit report is valid against junit-10.xsd',
  );
  return report;
}

test('odd secret values: every report of the CLI under every CI convention is valid, and the token is in none', async (t) => {
  for (const ci of ['github', 'gitlab', 'azure', 'jenkins'] as const) {
    const { url, emulator } = await startEmulator(t);
    hostile(emulator);
    const dir = mkdtempSync(join(tmpdir(), `enginectl-odd-${ci}-`));
    const file = join(dir, 'odd.yml');
    writeFileSync(file, PIPELINE);
    writeFileSync(join(dir, 'step-summary.md'), '');
    writeFileSync(join(dir, 'github-output'), '');
    const env = {
      ...ENV,
      ENGINE_URL: url,
      ENGINE_USERNAME: 'deployer',
      ENGINE_PASSWORD: API_PASSWORD,
      AGENT_TEMPDIRECTORY: dir,
      GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
      GITHUB_OUTPUT: join(dir, 'github-output'),
    };
    const r = await runCli(
      [
        'run',
        file,
        '--ci',
        ci,
        '--dotenv',
        join(dir, 'out.env'),
        '--report-json',
        join(dir, 'r.json'),
        '--junit',
        join(dir, 'r.xml'),
        '--summary',
        join(dir, 'r.md'),
        '--html',
        join(dir, 'r.html'),
      ],
      { env },
    );
    // Its update (continue-on-error) is left in doubt by the server's 500: exit 1, the run gone on.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = await checkReports(dir, { json: 'r.json', junit: 'r.xml' });
    assert.deepEqual(
      report.steps.map((s) => s.outcome),
      ['success', 'failure', 'failure'],
    );
    // Free text holding the secrets is masked; a one-character secret cannot be, and is named in a warning.
    assert.equal(report.steps[0]!.inputs.message, 't=*** n=*** k=*** v=*** a=a');
    assert.match(r.stdout + r.stderr, /secrets\.S_A is shorter than 3 characters/);
    assert.match(r.stdout + r.stderr, /secrets\.S_TRUE is a number or a literal/);
    // The error bodies had no message field: the server's text is shown, masked before it was folded.
    assert.match(report.steps[1]!.error!.message, /update refused.*\*\*\*/);
    assert.match(report.steps[2]!.error!.message, /upstream refused.*\*\*\*/);
    const masksItself = (text: string) => text.replace(/^(##vso\[task\.setsecret\]|::add-mask::).*$/gm, '');
    assertClean(`${ci} stdout`, masksItself(r.stdout), [TOKEN, API_PASSWORD]);
    assertClean(`${ci} stderr`, r.stderr, [TOKEN, API_PASSWORD]);
    for (const name of readdirSync(dir).filter((f) => f !== 'odd.yml'))
      assertClean(`${ci} ${name}`, readFileSync(join(dir, name), 'utf8'), [TOKEN, API_PASSWORD]);
  }
});

test('odd secret values: the root action writes valid reports, outputs and a summary without the token', async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostile(emulator);
  const run = await runActionBundle(t, {
    action: '.',
    files: { 'odd.yml': PIPELINE },
    inputs: { pipeline: 'odd.yml', url, username: 'deployer', password: API_PASSWORD },
    env: ENV,
  });
  // Its update (continue-on-error) is left in doubt by the server's 500: exit 1, the run gone on.
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const report = await checkReports('/', {
    json: run.outputs.report!,
    junit: run.outputs.report!.replace(/\.json$/, '.junit.xml'),
  });
  assert.equal(report.steps[0]!.inputs.message, 't=*** n=*** k=*** v=*** a=a');
  JSON.parse(run.outputs.outputs!);
  assertClean('stdout', run.stdout.replace(/^::add-mask::.*$/gm, ''), [TOKEN, API_PASSWORD]);
  for (const f of run.files()) assertClean(f, readFileSync(f, 'utf8'), [TOKEN, API_PASSWORD]);
});

test('enginectl api masks its own credentials and the --data secrets in what it prints', async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostile(emulator, false);
  const data = JSON.stringify({
    targetDBName: 'PROD',
    targetServer: 'prod-db.example.com',
    targetAuthToken: TOKEN,
    files: [1001],
    messageComplement: 'x',
  });
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: API_PASSWORD };
  const ok = await runCli(['api', 'POST', '/api/devops/v1/update/vfs', '--data', data, '--include'], { env });
  assert.equal(ok.code, 0, ok.stderr);
  JSON.parse(ok.stdout.slice(ok.stdout.indexOf('\n\n') + 2));
  assert.match(ok.stdout, /\[echo: Basic \*\*\*/, 'the server did echo the credentials');
  assertClean('api stdout', ok.stdout, [
    TOKEN,
    API_PASSWORD,
    Buffer.from(`deployer:${API_PASSWORD}`).toString('base64'),
  ]);
  // A refused call (files are not an option of a system update) prints the server's error text
  // on stderr, masked too.
  const refused = await runCli(['api', 'POST', '/api/devops/v1/update/system', '--data', data], { env });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /answered HTTP 400: .*\[echo: Basic \*\*\*/);
  assertClean('api stderr', refused.stdout + refused.stderr, [TOKEN, API_PASSWORD]);
});

test('a declared secret input too short to mask in text is sent as given and shown masked: masking a step for its reports never changes what the step sends', async (t) => {
  const { runYaml } = await import('../helpers/run.ts');
  const sent: unknown[] = [];
  const { result } = await runYaml(
    t,
    `version: 1
steps:
  - uses: licensing/add
    with: { code: "\${{ secrets.SHORT_CODE }}" }
`,
    {
      env: { SHORT_CODE: 'ab' },
      setup: (e: Emulator) => {
        const handle = e.handle.bind(e);
        e.handle = (req) => {
          if (req.method === 'POST') sent.push(req.body);
          return handle(req);
        };
      },
    },
  );
  assert.deepEqual(sent, ['ab'], `the code the pipeline gave, not its mask: ${JSON.stringify(result.steps[0]!.error)}`);
  assert.deepEqual(result.steps[0]!.inputs, { code: '***' }, 'shown masked in the result');
});

test('a password with colons, echoed by the server in every encoding, is masked whole: no part of it is left', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const password = 'Op$Pw:/+=%Zq9:x';
  emulator.users.push({ name: 'ops', password, scopes: new Set(ALL_SCOPES) });
  emulator.faults.add({ path: '/api/*', echoCredentials: true });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-colon-'));
  const file = join(dir, 'colon.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - id: alerts\n    uses: monitoring/alerts\n    with: { fail-on: none }\n');
  const r = await runCli(['run', file, '--report-json', join(dir, 'r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'ops', ENGINE_PASSWORD: password },
  });
  const said = r.stdout + r.stderr + readFileSync(join(dir, 'r.json'), 'utf8');
  assert.match(said, /\[echo: /, 'the server echoed the credentials');
  assertClean('output and report', said, [password, 'Op$Pw', '/+=%Zq9']);
});
