// Only text written in the pipeline file is an expression. Text that arrives from outside (an
// action input, a value the server returns, a --var value, a matrix value) is data: a `${{` or a
// quote inside it is sent, compared and shown as the text it is, never evaluated.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Emulator } from '../../src/emulator/index.ts';
import { runActionBundle } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

/** The bodies of the requests the emulator answered, by path. */
function recordBodies(emulator: Emulator): { path: string; body: string }[] {
  const seen: { path: string; body: string }[] = [];
  const handle = emulator.handle.bind(emulator);
  emulator.handle = (req) => {
    seen.push({ path: req.path, body: req.body });
    return handle(req);
  };
  return seen;
}

function sentTo(seen: { path: string; body: string }[], suffix: string): Record<string, unknown>[] {
  return seen.filter((r) => r.path.endsWith(suffix)).map((r) => JSON.parse(r.body) as Record<string, unknown>);
}

const HIDDEN = 'hidden-value-of-the-environment-7f3a';

function inFiles(dir: string, names: string[]): string {
  return names.map((n) => readFileSync(join(dir, n), 'utf8')).join('\n');
}

test('an action input holding ${{ }} reaches the server as the literal text the workflow gave', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const seen = recordBodies(emulator);
  const message = 'Fix login (${{ toJSON(env) }})';
  const run = await runActionBundle(t, {
    action: 'actions/vfs-update',
    inputs: {
      url,
      username: 'admin',
      password: 'admin',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
      'target-token': 'prod-token',
      files: '1001',
      message,
      'tracking-id': '${{ env.SOME_KEY }}',
    },
    env: { SOME_KEY: HIDDEN },
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [body] = sentTo(seen, '/update/vfs');
  assert.equal(body!.messageComplement, message);
  assert.equal(body!.trackingId, '${{ env.SOME_KEY }}');
  assert.equal(JSON.stringify(seen).includes(HIDDEN), false, 'no value of the environment was sent');
  for (const file of run.files()) assert.equal(readFileSync(file, 'utf8').includes(HIDDEN), false, file);
  assert.equal(run.stdout.includes(HIDDEN), false);
});

test('the issue repro: INPUT_MESSAGE with ${{ env.SOME_KEY }} in a dry run shows the text, not the value', async (t) => {
  const run = await runActionBundle(t, {
    action: 'actions/vfs-update',
    inputs: {
      url: 'http://127.0.0.1:9',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
      'target-token': 'prod-token',
      files: '1001',
      message: 'Deploy ${{ env.SOME_KEY }}',
      'dry-run': 'true',
    },
    env: { SOME_KEY: HIDDEN },
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /"messageComplement": "Deploy \$\{\{ env\.SOME_KEY \}\}"/);
  assert.match(run.summary, /Deploy \$\{\{ env\.SOME_KEY \}\}/);
  assert.equal(run.stdout.includes(HIDDEN) || run.summary.includes(HIDDEN), false);
});

const ENTITY = 2001;

/** A pipeline that stores `iname` on an entity, reads it back and tests it with assert and if. */
function gates(iname: string): string {
  return `version: 1
steps:
  - id: set
    uses: classes/update
    with: { id: ${ENTITY}, fields: { iname: ${JSON.stringify(iname)} } }
  - id: get
    name: "read \${{ steps.set.outputs.entity.iname }}"
    uses: classes/get
    with: { id: ${ENTITY} }
  - id: bare
    uses: assert
    continue-on-error: true
    with: { that: "steps.get.outputs.entity.iname == 'x'" }
  - id: wrapped
    uses: assert
    continue-on-error: true
    with: { that: "\${{ steps.get.outputs.entity.iname == 'x' }}" }
  - id: lone
    uses: assert
    continue-on-error: true
    with: { that: "\${{ steps.get.outputs.entity.iname }}" }
  - id: gated
    uses: transaction-log/clear
    if: steps.get.outputs.entity.iname == 'x'
`;
}

async function runGates(t: TestContext, iname: string, env: Record<string, string> = {}) {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-gates-'));
  const file = join(dir, 'gates.yml');
  writeFileSync(file, gates(iname));
  const r = await runCli(
    [
      'run',
      file,
      '--report-json',
      join(dir, 'r.json'),
      '--summary',
      join(dir, 'r.md'),
      '--html',
      join(dir, 'r.html'),
      '--junit',
      join(dir, 'r.xml'),
    ],
    {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...env },
    },
  );
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    steps: { id: string; name: string; outcome: string }[];
  };
  return { r, dir, outcomes: Object.fromEntries(report.steps.map((s) => [s.id, s.outcome])), report };
}

test("a server value holding ' || true || ' is data to assert and to if: the gates do not hold", async (t) => {
  const { r, outcomes } = await runGates(t, "x' || true || 'y");
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(outcomes, {
    set: 'success',
    get: 'success',
    bare: 'failure',
    wrapped: 'failure',
    lone: 'success',
    gated: 'skipped',
  });
  assert.match(r.stdout, /assertion failed: steps\.get\.outputs\.entity\.iname == 'x'/);
});

test('a server value holding fromJSON(env.X) is data: nothing of the environment is read or printed', async (t) => {
  // Evaluated, fromJSON(env.OTHER) would be false and fail the lone assertion; as text it is a
  // non-empty string, which holds.
  const other = `false`;
  const { r, dir, outcomes, report } = await runGates(t, 'fromJSON(env.OTHER)', { OTHER: other, HIDDEN });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(outcomes.lone, 'success', 'the stored text is a non-empty string');
  assert.equal(outcomes.bare, 'failure');
  assert.equal(
    report.steps.find((s) => s.id === 'get')!.name,
    'read fromJSON(env.OTHER)',
    'a name shows the value as text',
  );
  const written = r.stdout + r.stderr + inFiles(dir, ['r.json', 'r.md', 'r.html', 'r.xml']);
  assert.equal(written.includes(HIDDEN), false);
});

test('--var values and matrix values holding ${{ }} are data', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const seen = recordBodies(emulator);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-data-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
vars: { note: default }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    matrix: { tag: ["\${{ env.HIDDEN }}"] }
    with: { target: prod, files: [1001], message: "\${{ vars.note }}", tracking-id: "\${{ matrix.tag }}" }
`,
  );
  const r = await runCli(['run', file, '--var', 'note=${{ env.HIDDEN }}', '--report-json', join(dir, 'r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', HIDDEN },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [body] = sentTo(seen, '/update/vfs');
  assert.equal(body!.messageComplement, '${{ env.HIDDEN }}');
  assert.equal(body!.trackingId, '${{ env.HIDDEN }}');
  assert.equal((r.stdout + readFileSync(join(dir, 'r.json'), 'utf8')).includes(HIDDEN), false);
});

test('vars read env, secrets and earlier vars; a var that reads a secret is resolved and masked like it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ path: '/api/*', echoCredentials: true });
  const seen = recordBodies(emulator);
  const token = 'prod-token';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-vars-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
name: "Release \${{ vars.release }}"
vars:
  release: "\${{ env.RELEASE }}"
  tok: "\${{ secrets.PROD_TOKEN }}"
  label: "token \${{ vars.tok }} of \${{ vars.release }}"
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ vars.tok }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001], message: "\${{ vars.label }}" }
`,
  );
  const r = await runCli(['run', file, '--report-json', join(dir, 'r.json'), '--summary', join(dir, 'r.md')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: token, RELEASE: '2026.11' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [body] = sentTo(seen, '/update/vfs');
  assert.equal(body!.targetAuthToken, token, 'the var resolved to the secret');
  assert.equal(body!.messageComplement, `token ${token} of 2026.11`);
  assert.match(r.stdout, /running "Release 2026\.11"/);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    pipeline: { name: string };
    steps: { inputs: { message: string } }[];
  };
  assert.equal(report.pipeline.name, 'Release 2026.11');
  // label read a secret var: it is a secret as a whole.
  assert.equal(report.steps[0]!.inputs.message, '***');
  assert.equal((r.stdout + r.stderr + inFiles(dir, ['r.json', 'r.md'])).includes(token), false);
});

test('env cannot bypass the secret model: toJSON(env), env[...] and credential variables read through env are refused at their line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-env-'));
  const file = join(dir, 'leak.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - uses: classes/update
    with: { id: 2001, fields: { iemailaddress: "\${{ toJSON(env) }}" } }
  - uses: classes/update
    with: { id: 2001, fields: { iemailaddress: "\${{ env.NPM_TOKEN }}" } }
  - uses: classes/update
    with: { id: 2001, fields: { iemailaddress: "\${{ env.ACTIONS_ID_TOKEN_REQUEST_TOKEN }}" } }
  - uses: classes/update
    with: { id: 2001, fields: { iemailaddress: "\${{ env.HOME }}" } }
`,
  );
  const env = { NPM_TOKEN: 'npm_leak1234', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-leak-5678' };
  for (const command of [
    ['validate', file],
    ['plan', file],
    ['run', file, '--dry-run'],
  ]) {
    const r = await runCli(command, { env });
    assert.equal(r.code, 2, `${command[0]}: ${r.stdout}`);
    assert.match(r.stderr, /leak\.yml:4:\d+ environment names are static: write env\.NAME/);
    assert.match(r.stderr, /leak\.yml:6:\d+ env\.NPM_TOKEN holds a credential: read it as secrets\.NPM_TOKEN/);
    assert.match(r.stderr, /leak\.yml:8:\d+ env\.ACTIONS_ID_TOKEN_REQUEST_TOKEN holds a credential/);
    assert.doesNotMatch(r.stderr, /leak\.yml:10:/, 'env.HOME is fine');
    assert.doesNotMatch(r.stdout + r.stderr, /npm_leak1234|oidc-leak-5678/);
  }
});

test('credentials under common names read through env (DEPLOY_KEY, GH_PAT, DB_PASS, DOCKER_AUTH_CONFIG, DATABASE_URL) are refused at their line; read as secrets they never reach a report or the journal', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-env-common-'));
  const values: Record<string, string> = {
    DEPLOY_KEY: 'ssh-ed25519-deploy-leak-1',
    GH_PAT: 'github_pat_leak2',
    DB_PASS: 'db-pass-leak-3',
    DOCKER_AUTH_CONFIG: '{"auths":{"r.example.com":{"auth":"ZG9ja2VyLWxlYWstNA=="}}}',
    DATABASE_URL: 'postgres://app:pg-leak-5@db.example.com/app',
  };
  const names = Object.keys(values);
  const pipeline = (context: 'env' | 'secrets') => `version: 1
steps:
${names.map((n) => `  - uses: classes/update\n    with: { id: 2001, fields: { iemailaddress: "\${{ ${context}.${n} }}" } }`).join('\n')}
`;
  writeFileSync(join(dir, 'env.yml'), pipeline('env'));
  const refused = await runCli(
    [
      'run',
      join(dir, 'env.yml'),
      '--emulator',
      '--report-json',
      join(dir, 'env.json'),
      '--journal',
      join(dir, 'env.journal.jsonl'),
    ],
    { env: values },
  );
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  names.forEach((n, i) =>
    assert.match(
      refused.stderr,
      new RegExp(`env\\.yml:${4 + 2 * i}:\\d+ env\\.${n} holds a credential: read it as secrets\\.${n}`),
    ),
  );
  for (const v of Object.values(values)) assert.equal((refused.stdout + refused.stderr).includes(v), false);

  writeFileSync(join(dir, 'secrets.yml'), pipeline('secrets'));
  const masked = await runCli(
    [
      'run',
      join(dir, 'secrets.yml'),
      '--emulator',
      '--report-json',
      join(dir, 'r.json'),
      '--journal',
      join(dir, 'run.journal.jsonl'),
    ],
    { env: values },
  );
  assert.equal(masked.code, 0, masked.stdout + masked.stderr);
  const channels = masked.stdout + masked.stderr + inFiles(dir, ['r.json', 'run.journal.jsonl']);
  for (const v of [...Object.values(values), 'pg-leak-5']) assert.equal(channels.includes(v), false, `${v} is masked`);

  // A URL with a password in it, under any name, shows without its password.
  writeFileSync(
    join(dir, 'url.yml'),
    'version: 1\nsteps:\n  - uses: classes/update\n    with: { id: 2001, fields: { iemailaddress: "${{ env.ORDERS_DB }}" } }\n',
  );
  const url = await runCli(
    [
      'run',
      join(dir, 'url.yml'),
      '--emulator',
      '--report-json',
      join(dir, 'u.json'),
      '--journal',
      join(dir, 'u.journal.jsonl'),
    ],
    { env: { ORDERS_DB: 'postgres://orders:orders-leak-6@db.example.com/orders' } },
  );
  assert.equal(url.code, 0, url.stdout + url.stderr);
  const shown = url.stdout + url.stderr + inFiles(dir, ['u.json', 'u.journal.jsonl']);
  assert.equal(shown.includes('orders-leak-6'), false, 'the password is masked');
  assert.ok(shown.includes('db.example.com/orders'), 'the rest of the URL is shown');
});

test('env.* and secrets.* (the filter over every value) are the whole context: refused at validation with their column, never run (with a variable named * set, the whole environment was dumped unmasked)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-env-star-'));
  const file = join(dir, 'star.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - uses: assert
    with: { that: "true", message: "\${{ join(env.*, ' | ') }}" }
  - uses: assert
    name: "leak \${{ join(secrets.*, ' | ') }}"
    with: { that: "true" }
`,
  );
  const env = { '*': '1', MY_SECRET_TOKEN: 'hunter2-star-leak' };
  for (const command of [
    ['validate', file],
    ['run', file, '--emulator', '--report-json', join(dir, 'r.json')],
  ]) {
    const r = await runCli(command, { env });
    assert.equal(r.code, 2, `${command[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /star\.yml:4:\d+ environment names are static: write env\.NAME/);
    assert.match(r.stderr, /star\.yml:6:\d+ secret names are static/);
    assert.doesNotMatch(r.stdout + r.stderr, /hunter2-star-leak/);
  }
});
