// A hostile server echoes every credential it receives (the Authorization header as sent and
// decoded, tokens, passwords, license codes) back in results, update reports and error bodies.
// No secret may reach any channel: stdout, stderr, the job summary, the outputs file, the JSON,
// JUnit, HTML and Markdown reports; in plain, JSON-escaped, URL-encoded, base64 or HTML form,
// nor any line of a multi-line secret (test/helpers/secrets.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import type { Emulator } from '../../src/emulator/index.ts';
import { FAKE_GITHUB_TOKEN, runActionBundle } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';
import { LICENSE_CREATE_WITH } from '../helpers/run.ts';

const API_PASSWORD = 'P@ss w/rd+"q"%7e';
const TARGET_TOKEN = 'tok/en+PROD=="x"&y';
const TARGET_PASSWORD = 'Dep\\loy pa$$:1?';
const NOTE = 'release-note-secret-NT42';
const CERT = 'first-line-of-CERT-aa11\nsecond-line-of-CERT-bb22';

/** The Authorization header carries base64(user:password), a form of its own. */
const BASIC = Buffer.from(`deployer:${API_PASSWORD}`).toString('base64');
const SECRETS = [API_PASSWORD, TARGET_TOKEN, TARGET_PASSWORD, NOTE, CERT, FAKE_GITHUB_TOKEN, BASIC];

/** License codes the emulator issued: secrets of the run as well. */
const issued: string[] = [];

function hostile(emulator: Emulator) {
  const handle = emulator.handle.bind(emulator);
  emulator.handle = (req) => {
    const answer = handle(req);
    if (req.path.endsWith('/licenses/create') && answer.status === 200 && answer.body) issued.push(answer.body);
    return answer;
  };
  emulator.users.push({ name: 'deployer', password: API_PASSWORD, scopes: new Set(ALL_SCOPES) });
  const prod = emulator.state.databases.find((d) => d.name === 'PROD')!;
  prod.tokens.push(TARGET_TOKEN);
  const staging = emulator.state.databases.find((d) => d.name === 'STAGING')!;
  staging.users.push({ name: 'deploy', password: TARGET_PASSWORD });
  // Every answer echoes the credentials; the system update of staging fails with them in its error body.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, echoCredentials: true });
  emulator.faults.add({ path: '/api/*', echoCredentials: true });
}

const PIPELINE = `version: 1
name: Hostile
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: "\${{ secrets.STAGING_PASSWORD }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001], message: "\${{ secrets.NOTE }} \${{ secrets.CERT }}" }
  - id: lic
    uses: licensing/create
${LICENSE_CREATE_WITH}  - id: add
    uses: licensing/add
    with: { code: "\${{ steps.lic.outputs.code }}" }
  - id: system
    uses: update/system
    continue-on-error: true
    with: { target: staging, message: "\${{ secrets.NOTE }}" }
  - id: sync
    uses: replication/sync
`;

const ENV = { PROD_TOKEN: TARGET_TOKEN, STAGING_PASSWORD: TARGET_PASSWORD, NOTE, CERT };

test('the root action leaks no secret into any channel, though the server echoes them all', async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostile(emulator);
  const run = await runActionBundle(t, {
    action: '.',
    files: { 'hostile.yml': PIPELINE },
    inputs: { pipeline: 'hostile.yml', url, username: 'deployer', password: API_PASSWORD },
    env: ENV,
  });
  // Its update (continue-on-error) is left in doubt by the server's 500: exit 1, the run gone on.
  assert.equal(run.code, 1, run.stdout);
  const report = JSON.parse(readFileSync(run.outputs.report!, 'utf8')) as {
    steps: { id: string; outcome: string; result: unknown }[];
  };
  assert.deepEqual(
    report.steps.map((s) => s.outcome),
    ['success', 'success', 'success', 'failure', 'success'],
  );
  const code = JSON.parse(run.outputs.outputs!).lic.code as string;
  assert.equal(code, '***', 'the license code output is masked');
  // The server did echo them: the masked text shows where.
  assert.match(JSON.stringify(report.steps[0]!.result), /\[echo: Basic \*\*\* \/ Basic%20\*\*\*/);

  // The license code the server issued is a secret of the run too.
  assert.ok(issued.length > 0, 'the emulator issued a license code');
  const scan = [...SECRETS, ...issued];
  assertClean('stdout', run.stdout.replace(/^::add-mask::.*$/gm, ''), scan);
  assertClean('stderr', run.stderr, scan);
  for (const file of run.files()) assertClean(file, readFileSync(file, 'utf8'), scan);
  // Each secret was registered with the runner's masking before the first line that is not one.
  const firstOther = run.stdout.split('\n').findIndex((l) => !l.startsWith('::add-mask::'));
  const unescape = (v: string) => v.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const masks = run.stdout
    .split('\n')
    .slice(0, firstOther)
    .map((l) => unescape(l.slice('::add-mask::'.length)));
  for (const s of [API_PASSWORD, TARGET_TOKEN, TARGET_PASSWORD, NOTE, CERT, FAKE_GITHUB_TOKEN])
    assert.ok(masks.includes(s), `::add-mask:: for ${s.slice(0, 4)}… comes first`);
  // The forms the runner does not derive itself are registered too: hex, base64's other spellings.
  assert.deepEqual(unregistered(masks, [API_PASSWORD, TARGET_TOKEN, TARGET_PASSWORD, NOTE, CERT]), []);
});

/**
 * The derived forms of each secret (and each line of a multi-line one) that the masker masks as
 * written and a CI runner's own masking does not derive (GitHub's and Azure's derive standard
 * base64, JSON, URL and HTML escapes): hex in lower and upper case, base64 URL-safe and unpadded.
 */
function unregistered(registered: string[], secrets: string[]): string[] {
  const missing: string[] = [];
  for (const secret of secrets)
    for (const text of [secret, ...(secret.includes('\n') ? secret.split('\n') : [])]) {
      const hex = Buffer.from(text).toString('hex');
      const b64 = Buffer.from(text).toString('base64');
      const url = Buffer.from(text).toString('base64url');
      const forms = {
        hex,
        'upper-case hex': hex.toUpperCase(),
        base64: b64,
        'base64 without padding': b64.replace(/=+$/, ''),
        'base64 URL-safe': url,
        'base64 URL-safe, padded': url.padEnd(b64.length, '='),
      };
      for (const [name, form] of Object.entries(forms))
        if (!registered.includes(form)) missing.push(`${name} of ${text.slice(0, 4)}…`);
    }
  return [...new Set(missing)];
}

test('a single-step action leaks no target credential, on success and on a failed call', async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostile(emulator);
  const inputs = {
    url,
    username: 'deployer',
    password: API_PASSWORD,
    'target-server': 'staging-db.example.com',
    'target-database': 'STAGING',
    'target-username': 'deploy',
    'target-password': TARGET_PASSWORD,
    message: 'hello',
  };
  const failed = await runActionBundle(t, { action: 'actions/system-update', inputs });
  assert.equal(failed.code, 1);
  const ok = await runActionBundle(t, {
    action: 'actions/vfs-update',
    inputs: {
      ...inputs,
      files: '1001',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
      'target-username': '',
      'target-password': '',
      'target-token': TARGET_TOKEN,
    },
  });
  assert.equal(ok.code, 0, ok.stdout);
  for (const run of [failed, ok]) {
    assertClean('stdout', run.stdout.replace(/^::add-mask::.*$/gm, ''), SECRETS);
    assertClean('stderr', run.stderr, SECRETS);
    for (const file of run.files()) assertClean(file, readFileSync(file, 'utf8'), SECRETS);
  }
});

test('the CLI leaks no secret into its output or any report it writes', async (t) => {
  const { url, emulator } = await startEmulator(t);
  hostile(emulator);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-secrets-'));
  const file = join(dir, 'hostile.yml');
  (await import('node:fs')).writeFileSync(file, PIPELINE);
  const reports = ['--report-json', 'r.json', '--junit', 'r.xml', '--summary', 'r.md', '--html', 'r.html'].map((a) =>
    a.startsWith('--') ? a : join(dir, a),
  );
  const r = await runCli(['run', file, ...reports], {
    env: { ...ENV, ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: API_PASSWORD },
  });
  // Its update (continue-on-error) is left in doubt by the server's 500: exit 1, the run gone on.
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assertClean('stdout', r.stdout, SECRETS);
  assertClean('stderr', r.stderr, SECRETS);
  for (const name of ['r.json', 'r.xml', 'r.md', 'r.html'])
    assertClean(name, readFileSync(join(dir, name), 'utf8'), SECRETS);
  const plan = await runCli(['plan', file], {
    env: { ...ENV, ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: API_PASSWORD },
  });
  assert.equal(plan.code, 0, plan.stderr);
  assertClean('plan', plan.stdout, SECRETS);
});

test('other CI systems, a call cut mid-way, the dry run: no secret in their log commands, dotenv or summary files', async (t) => {
  for (const ci of ['gitlab', 'azure', 'jenkins'] as const) {
    const { url, emulator } = await startEmulator(t);
    // The sync is cut after the server handled it, while every answer echoes the credentials.
    emulator.faults.add({
      method: 'POST',
      path: '/api/devops/v1/replication/sync',
      reset: 'after',
      echoCredentials: true,
    });
    hostile(emulator);
    const dir = mkdtempSync(join(tmpdir(), `enginectl-secrets-${ci}-`));
    const file = join(dir, 'hostile.yml');
    (await import('node:fs')).writeFileSync(file, PIPELINE);
    const env = {
      ...ENV,
      ENGINE_URL: url,
      ENGINE_USERNAME: 'deployer',
      ENGINE_PASSWORD: API_PASSWORD,
      AGENT_TEMPDIRECTORY: dir,
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
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
      steps: { error: { code: string } | null }[];
    };
    assert.equal(report.steps.at(-1)!.error?.code, 'API_CONNECTION_RESET', 'the sync failed mid-call');
    const unescape = (v: string) =>
      v
        .replace(/%0D/g, '\r')
        .replace(/%0A/g, '\n')
        .replace(/%AZP25/g, '%');
    const masks = (stdout: string) =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('##vso[task.setsecret]'))
        .map((l) => unescape(l.slice('##vso[task.setsecret]'.length)));
    if (ci === 'azure')
      assert.deepEqual(unregistered(masks(r.stdout), [API_PASSWORD, TARGET_TOKEN, TARGET_PASSWORD, NOTE, CERT]), []);
    // Azure's own masking commands name the secrets on purpose (##vso[task.setsecret]): the rest may not.
    assertClean(`${ci} stdout`, r.stdout.replace(/^##vso\[task\.setsecret\].*$/gm, ''), SECRETS);
    assertClean(`${ci} stderr`, r.stderr, SECRETS);
    const written = (await import('node:fs')).readdirSync(dir).filter((f) => f !== 'hostile.yml');
    assert.ok(written.includes('out.env') && written.includes('r.html'), written.join(', '));
    for (const name of written) assertClean(`${ci} ${name}`, readFileSync(join(dir, name), 'utf8'), SECRETS);
    const dry = await runCli(['run', file, '--dry-run', '--ci', ci], { env });
    assert.equal(dry.code, 0, dry.stderr);
    // The dry run registers what it is given as the run does (its secrets are the job's all the same).
    if (ci === 'azure')
      assert.deepEqual(unregistered(masks(dry.stdout), [API_PASSWORD, TARGET_TOKEN, TARGET_PASSWORD, NOTE, CERT]), []);
    assertClean(`${ci} dry run`, dry.stdout.replace(/^##vso\[task\.setsecret\].*$/gm, ''), SECRETS);
  }
});
