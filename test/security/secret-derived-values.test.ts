// A value an expression computes from a secret is a secret too, wherever the expression is written
// (a step's name, its inputs, a server's or a target's fields), as a var that reads one always was:
// a field of a JSON secret (`fromJSON(secrets.CREDS).password`), a list secret joined, the secret
// re-serialised compactly, a format string that is a secret, a number read from one. Each is sent
// to the server as given (the server's update report echoes the message and the tracking id), and
// no channel shows it: the terminal, GitHub's annotations, the journal, every report and the
// reports `enginectl report` makes again from the journal. A secret that is not JSON is never
// quoted by fromJSON()'s error.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

const PASSWORD = 'hunter2-Secret-99';
const USER = 'uSERNAME-xyz';
const ENV = {
  PROD_TOKEN: 'prod-token',
  CREDS: JSON.stringify({ user: USER, password: PASSWORD }),
  SPACED: `{ "user": "svc-account", "password": "${PASSWORD}x" }`,
  PARTS: '["hunter2","-Sec-A"]',
  FMT: 'Fmt{{Secret}}-42',
  PIN: '{"pin": 48213377}',
};
/** What each derivation gives: none of it may be shown. */
const DERIVED = [
  PASSWORD,
  USER,
  `{"user":"svc-account","password":"${PASSWORD}x"}`,
  'hunter2-Sec-A',
  'Fmt{Secret}-42',
  '48213377',
];

const PIPELINE = `version: 1
name: Derived secrets
vars:
  pin: "\${{ fromJSON(secrets.PIN).pin }}"
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    name: "vfs for \${{ fromJSON(secrets.CREDS).user }}"
    uses: update/vfs
    with:
      target: prod
      files: [1001]
      message: "deploy by \${{ fromJSON(secrets.CREDS).password }} as \${{ fromJSON(secrets.SPACED) }}"
      tracking-id: "\${{ fromJSON(secrets.CREDS).password }}"
  - name: "assert \${{ join(fromJSON(secrets.PARTS), '') }} \${{ format(secrets.FMT) }} pin \${{ vars.pin }}"
    uses: assert
    continue-on-error: true
    with:
      that: "fromJSON(secrets.CREDS).password == 'nope'"
      message: "pw was \${{ fromJSON(secrets.CREDS).password }}"
`;

test('a value computed from a secret by an expression (a JSON field, a join, a re-serialisation, a format, a number) is masked in every channel, though the server is sent it and echoes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'derived.yml');
  writeFileSync(file, PIPELINE);
  const summary = join(dir, 'gh-summary.md');
  writeFileSync(summary, '');
  const env = { ...ENV, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
  const outputs = (prefix: string) => [
    '--report-json',
    join(dir, `${prefix}.json`),
    '--junit',
    join(dir, `${prefix}.xml`),
    '--html',
    join(dir, `${prefix}.html`),
    '--summary',
    join(dir, `${prefix}.md`),
  ];
  const journal = join(dir, 'run.jsonl');
  const run = await runCli(['run', file, '--emulator', '--journal', journal, ...outputs('run')], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const again = await runCli(['report', journal, ...outputs('again')], { env });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const channels: [string, string][] = [
    ['run stdout', run.stdout],
    ['run stderr', run.stderr],
    ['report stdout', again.stdout + again.stderr],
    ...readdirSync(dir)
      .filter((name) => name !== 'derived.yml')
      .map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8')]),
  ];
  // ::add-mask:: lines tell GitHub what to mask: they hold the secrets by design.
  for (const [channel, text] of channels) assertClean(channel, text.replace(/^::add-mask::.*$/gm, ''), DERIVED);
  // The server was sent the values themselves: its update report echoes the tracking id, masked.
  const report = readFileSync(join(dir, 'run.json'), 'utf8');
  assert.match(report, /Tracking id:\*\* \*\*\*/, 'the server echoed the tracking id it was sent');
});

test('a secret that is not JSON, read with fromJSON(), is not quoted by the error: neither its first characters nor the text around a typo', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'bad.yml');
  writeFileSync(
    file,
    `version: 1
name: Bad JSON
steps:
  - name: not JSON
    uses: assert
    continue-on-error: true
    with: { that: "fromJSON(secrets.PW) == 1" }
  - name: a typo
    uses: assert
    continue-on-error: true
    with: { that: "fromJSON(secrets.BAD).password == 1" }
`,
  );
  const env = {
    PW: 'hunter2-Secret-99-abcdefghijklmnop',
    BAD: '{"user":"svc","password":hunter2-Secret-88}',
  };
  const json = join(dir, 'r.json');
  const run = await runCli(['run', file, '--emulator', '--report-json', json], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /fromJSON\(\): not valid JSON/);
  const channels: [string, string][] = [
    ['stdout', run.stdout + run.stderr],
    ['report', readFileSync(json, 'utf8')],
  ];
  for (const [channel, text] of channels)
    for (const piece of ['hunter2', 'Secret-8', 'password":h'])
      assert.ok(!text.includes(piece), `${channel} quotes the secret: ${piece}`);
});

test('a --var given to a var the file makes of a secret holds a secret: it is masked in every channel and in the journal', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'override.yml');
  writeFileSync(
    file,
    `version: 1
name: Override
vars:
  pw: "\${{ secrets.PW }}"
  note: "by \${{ vars.pw }}"
steps:
  - name: "V \${{ vars.pw }}"
    uses: assert
    with: { that: true }
`,
  );
  const given = 'Gvar-given-on-cli';
  const journal = join(dir, 'run.jsonl');
  const json = join(dir, 'r.json');
  const run = await runCli(
    ['run', file, '--emulator', '--var', `pw=${given}`, '--journal', journal, '--report-json', json],
    {
      env: { PW: 'Gsecret-in-the-environment' },
    },
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /V \*\*\*/);
  const channels: [string, string][] = [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['report', readFileSync(json, 'utf8')],
  ];
  for (const [channel, text] of channels) assertClean(channel, text, [given]);
});

test('a value computed from a secret read through env.NAME, or from a secret var named by a computed index, is masked; a var read by a computed index when no var holds a secret is not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'indirect.yml');
  writeFileSync(
    file,
    `version: 1
name: Indirect
vars:
  creds: "\${{ secrets.CREDS }}"
  which: creds
steps:
  - name: "E \${{ fromJSON(env.CREDS).password }} V \${{ fromJSON(vars[vars.which]).user }}"
    uses: assert
    with: { that: "secrets.CREDS != ''" }
`,
  );
  const run = await runCli(['run', file, '--emulator'], { env: { CREDS: ENV.CREDS } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assertClean('terminal', run.stdout + run.stderr, [PASSWORD, USER]);
  assert.match(run.stdout, /E \*\*\* V \*\*\*/);
  // Data stays data: no var holds a secret, and a list read by a computed index is shown.
  const plain = join(dir, 'plain.yml');
  writeFileSync(
    plain,
    `version: 1
name: Plain
vars:
  sites: [site-east-0001, site-west-0002]
  which: sites
steps:
  - name: "P \${{ vars[vars.which][1] }} \${{ join(vars.sites, '+') }}"
    uses: assert
    with: { that: "secrets.CREDS != ''" }
`,
  );
  const shown = await runCli(['run', plain, '--emulator'], { env: { CREDS: ENV.CREDS } });
  assert.equal(shown.code, 0, shown.stdout + shown.stderr);
  assert.match(shown.stdout, /P site-west-0002 site-east-0001\+site-west-0002/);
});

test("a var made of a secret however it reads it (env.NAME of a secret, a secret var by a computed name) and the pipeline's name computed from a secret are masked", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'vars.yml');
  writeFileSync(
    file,
    `version: 1
name: "release \${{ fromJSON(vars.viaEnv).user }}"
vars:
  viaEnv: "\${{ env.CREDS }}"
  creds: "\${{ secrets.CREDS }}"
  computed: "\${{ fromJSON(vars[format('{0}', 'creds')]).password }}"
steps:
  - name: "B \${{ fromJSON(vars.viaEnv).password }} C \${{ vars.computed }}"
    uses: assert
    with: { that: "secrets.CREDS != ''" }
`,
  );
  const journal = join(dir, 'run.jsonl');
  const json = join(dir, 'r.json');
  const run = await runCli(['run', file, '--emulator', '--journal', journal, '--report-json', json], {
    env: { CREDS: ENV.CREDS },
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const channels: [string, string][] = [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['report', readFileSync(json, 'utf8')],
  ];
  for (const [channel, text] of channels) assertClean(channel, text, [PASSWORD, USER]);
  assert.match(run.stdout, /running "release \*\*\*"/);
});

test("what a secret is made of is not learnt as one: a secret object's field names and keys (a site's name), a number inside it, a yes or no computed from a secret, a default an expression falls back to", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'data.yml');
  writeFileSync(
    file,
    `version: 1
name: Data
vars:
  creds: "\${{ fromJSON(secrets.CREDS) }}"
  tokens: "\${{ fromJSON(secrets.SITE_TOKENS) }}"
  cfg: "\${{ fromJSON(secrets.CFG) }}"
  sites: [berlin-site, paris-site]
steps:
  - name: "Update"
    uses: assert
    matrix: { site: "\${{ vars.sites }}" }
    with: { that: "vars.tokens[matrix.site] != ''" }
  - name: "flag \${{ secrets.CREDS != '' }} region \${{ secrets.REGION || 'eu-west-1' }}"
    uses: assert
    with: { that: true, message: "the user and password rotated in 2024" }
`,
  );
  const json = join(dir, 'r.json');
  const env = {
    CREDS: ENV.CREDS,
    SITE_TOKENS: JSON.stringify({ 'berlin-site': 'tok-berlin-Secret-1', 'paris-site': 'tok-paris-Secret-2' }),
    CFG: JSON.stringify({ token: 'cfg-token-Secret-3', year: 2024 }),
    REGION: '',
  };
  const run = await runCli(['run', file, '--emulator', '--report-json', json], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const shown = run.stdout + readFileSync(json, 'utf8');
  for (const word of ['berlin-site', 'paris-site', 'flag true region eu-west-1'])
    assert.ok(shown.includes(word), `${word} is shown: ${run.stdout}`);
  assert.doesNotMatch(run.stdout + run.stderr, /warning the value of/, 'nothing learnt, nothing warned');
  assertClean('terminal and report', shown, [PASSWORD, 'tok-berlin-Secret-1', 'cfg-token-Secret-3']);
});

test('an error that stops a run before its first call masks what the run learnt from its secrets: a CA file path or a server name computed from a secret', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const ca = join(dir, 'ca.yml');
  writeFileSync(
    ca,
    `version: 1
name: CA
servers:
  default: { url: "https://127.0.0.1:9", username: admin, password: admin, ca-file: "/nonexistent/\${{ fromJSON(secrets.CREDS).password }}" }
steps:
  - uses: monitoring/engines
`,
  );
  const server = join(dir, 'server.yml');
  writeFileSync(
    server,
    `version: 1
name: Server
vars: { creds: "\${{ secrets.CREDS }}" }
servers:
  a: { url: "https://127.0.0.1:9", username: admin, password: admin }
steps:
  - uses: monitoring/engines
    server: \${{ fromJSON(vars.creds).password }}
`,
  );
  for (const [file, code] of [
    [ca, /CA_FILE_UNREADABLE/],
    [server, /UNKNOWN_SERVER/],
  ] as const) {
    const r = await runCli(['run', file], { env: { CREDS: ENV.CREDS, GITHUB_ACTIONS: 'true' } });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, code);
    assertClean(file, r.stdout.replace(/^::add-mask::.*$/gm, '') + r.stderr, [PASSWORD]);
  }
});

test("a value a step's inputs compute from a secret is learnt before the first step: an earlier step's answer that holds it is masked in the journal, written ahead", async (t) => {
  const { emulator, url } = await startEmulator(t);
  // An earlier run left the password on the entity the first step reads.
  const entity = emulator.state.entities.find((e) => e.ikey === 3002)!;
  entity.icustomer = PASSWORD;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'early.yml');
  writeFileSync(
    file,
    `version: 1
name: Early
steps:
  - uses: classes/get
    with: { id: 3002 }
  - uses: classes/update
    with: { id: 3002, fields: { icustomer: "\${{ fromJSON(secrets.CREDS).password }}" } }
`,
  );
  const journal = join(dir, 'run.jsonl');
  const env = { CREDS: ENV.CREDS, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const again = join(dir, 'again.json');
  const report = await runCli(['report', journal, '--report-json', again], { env: {} });
  assert.equal(report.code, 0, report.stdout + report.stderr);
  const channels: [string, string][] = [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['report from the journal', readFileSync(again, 'utf8')],
  ];
  for (const [channel, text] of channels) assertClean(channel, text, [PASSWORD]);
});

test("a JSON secret the server echoes, read back from a step's output with fromJSON(), gives secrets: its fields are masked in every channel; a JSON answer that is not a secret gives none", async (t) => {
  const { emulator, url } = await startEmulator(t);
  // The server keeps the JSON secret in a field (an earlier run stored it) and answers it back.
  emulator.state.entities.find((e) => e.ikey === 3002)!.icustomer = ENV.CREDS;
  // Re-written by another tool with spaces: the same secret, other text.
  emulator.state.entities.find((e) => e.ikey === 3003)!.icustomer = ENV.SPACED.replace(/ /g, '  ');
  // Not a secret, though its field is named as one's is.
  emulator.state.entities.find((e) => e.ikey === 3001)!.icustomer =
    '{"user":"visible-user-7","password":"visible-pw-7"}';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'echo.yml');
  writeFileSync(
    file,
    `version: 1
name: Echo
steps:
  - { id: a, uses: classes/get, with: { id: 3002 } }
  - { id: b, uses: classes/get, with: { id: 3003 } }
  - { id: c, uses: classes/get, with: { id: 3001 } }
  - { uses: assert, with: { that: "secrets.CREDS != '' && secrets.SPACED != ''" } }
  - name: "as \${{ fromJSON(steps.a.outputs.entity.icustomer).user }} and \${{ fromJSON(steps.b.outputs.entity.icustomer).password }}"
    uses: assert
    continue-on-error: true
    with:
      that: "false"
      message: "pw \${{ fromJSON(steps.a.outputs.entity.icustomer).password }}, \${{ join(fromJSON(steps.b.outputs.entity.icustomer).*, '+') }}; not \${{ fromJSON(steps.c.outputs.entity.icustomer).password }}"
`,
  );
  const journal = join(dir, 'run.jsonl');
  const env = {
    CREDS: ENV.CREDS,
    SPACED: ENV.SPACED,
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
  };
  const html = join(dir, 'run.html');
  const run = await runCli(['run', file, '--journal', journal, '--html', html], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const channels: [string, string][] = [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['HTML report', readFileSync(html, 'utf8')],
  ];
  for (const [channel, text] of channels) assertClean(channel, text, [PASSWORD, USER, `${PASSWORD}x`, 'svc-account']);
  // What is no secret's stays visible.
  assert.match(run.stdout + run.stderr, /not visible-pw-7/);
});

test('a JSON secret a server answers back with its keys in another order gives secrets too; what an expression gives of a JSON secret is learnt, not its every field', async (t) => {
  const { emulator, url } = await startEmulator(t);
  const creds = {
    password: 'hunter2-Secret-77x',
    user: 'svc-account-77',
    region: 'eu-west-region-9',
    host: 'db-host-visible.example',
  };
  // A store that orders keys (Go's maps, jsonb) answers it back sorted otherwise.
  emulator.state.entities.find((e) => e.ikey === 3002)!.icustomer = JSON.stringify({
    user: creds.user,
    host: creds.host,
    region: creds.region,
    password: creds.password,
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'order.yml');
  writeFileSync(
    file,
    `version: 1
name: Order
steps:
  - { id: a, uses: classes/get, with: { id: 3002 } }
  - name: "as \${{ fromJSON(secrets.CREDS).user }}"
    uses: assert
    continue-on-error: true
    with:
      that: "false"
      message: "pw \${{ fromJSON(steps.a.outputs.entity.icustomer).password }}; region is ${creds.region}, host ${creds.host}"
`,
  );
  const report = join(dir, 'run.json');
  const env = { CREDS: JSON.stringify(creds), ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--report-json', report], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  for (const [channel, text] of [
    ['terminal', run.stdout + run.stderr],
    ['JSON report', readFileSync(report, 'utf8')],
  ] as const)
    assertClean(channel, text, [creds.password, creds.user]);
  // The fields no expression gives alone stay visible.
  assert.match(run.stdout + run.stderr, /pw \*\*\*; region is eu-west-region-9, host db-host-visible\.example/);
});

test('a JSON secret a server answers back whole, its keys in another order, is masked in the journal written ahead, though no expression reads it', async (t) => {
  const { emulator, url } = await startEmulator(t);
  const creds = { password: 'hunter2-Whole-88q', user: 'svc-whole-88', region: 'eu-whole-region-3' };
  // Kept by a store that orders keys (Go's maps, jsonb), spaced its own way.
  emulator.state.entities.find((e) => e.ikey === 3002)!.icustomer =
    `{ "user": "${creds.user}", "region": "${creds.region}", "password": "${creds.password}" }`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'whole.yml');
  writeFileSync(
    file,
    `version: 1
name: Whole
steps:
  - { id: a, uses: classes/get, with: { id: 3002 } }
  - { uses: assert, with: { that: "secrets.CREDS != ''" } }
`,
  );
  const journal = join(dir, 'run.jsonl');
  const report = join(dir, 'run.json');
  const env = { CREDS: JSON.stringify(creds), ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journal, '--report-json', report], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  for (const [channel, text] of [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['JSON report', readFileSync(report, 'utf8')],
  ] as const)
    assertClean(channel, text, [creds.password]);
});

test('a JSON secret a server answers back whole, its keys in another order, is masked in a message that gives it, as in the values kept', async (t) => {
  const { emulator, url } = await startEmulator(t);
  const creds = { password: 'hunter2-Text-41k', user: 'svc-text-41', region: 'eu-text-region-4' };
  // Kept by a store that orders keys (Go's maps, jsonb), spaced its own way.
  emulator.state.entities.find((e) => e.ikey === 3002)!.icustomer =
    `{ "user": "${creds.user}", "region": "${creds.region}", "password": "${creds.password}" }`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'message.yml');
  writeFileSync(
    file,
    `version: 1
name: Message
steps:
  - { id: a, uses: classes/get, with: { id: 3002 } }
  - uses: assert
    continue-on-error: true
    with:
      that: "false"
      message: "the customer is \${{ steps.a.outputs.entity.icustomer }} (\${{ secrets.CREDS != '' }})"
`,
  );
  const journal = join(dir, 'run.jsonl');
  const report = join(dir, 'run.json');
  const env = { CREDS: JSON.stringify(creds), ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journal, '--report-json', report], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /the customer is/);
  for (const [channel, text] of [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['JSON report', readFileSync(report, 'utf8')],
  ] as const)
    assertClean(channel, text, [creds.password]);
});

test('a JSON secret a server answers back as a JSON value, its keys in another order, is masked wherever it is kept or given', async (t) => {
  const creds = { password: 'hunter2-Object-52m', user: 'svc-object-52', region: 'eu-object-region-5' };
  // A store that keeps JSON as JSON (jsonb) answers it back as an object, its keys its own order.
  const server = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        `{"id": 7, "config": {"user": "${creds.user}", "region": "${creds.region}", "password": "${creds.password}"}}`,
      ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-derived-'));
  const file = join(dir, 'object.yml');
  writeFileSync(
    file,
    `version: 1
name: Object
steps:
  - { id: a, uses: api/request, with: { path: /api/monitoring/v1/alerts } }
  - uses: assert
    continue-on-error: true
    with:
      that: "false"
      message: "the config is \${{ toJSON(steps.a.outputs.body.config) }} (\${{ secrets.CREDS != '' }})"
`,
  );
  const journal = join(dir, 'run.jsonl');
  const report = join(dir, 'run.json');
  const env = { CREDS: JSON.stringify(creds), ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journal, '--report-json', report], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /the config is/);
  for (const [channel, text] of [
    ['terminal', run.stdout + run.stderr],
    ['journal', readFileSync(journal, 'utf8')],
    ['JSON report', readFileSync(report, 'utf8')],
  ] as const)
    assertClean(channel, text, [creds.password]);
});
