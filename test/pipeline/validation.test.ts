// Every validation rule has a bad fixture (test/fixtures/pipelines/bad) whose first lines say
// where the problem must be reported: `# expect: LINE:COL message | hint`.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { formatDiagnostic, PipelineInvalid, type Diagnostic } from '../../src/pipeline/diagnostics.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { runCli } from '../helpers/cli.ts';

const dir = fileURLToPath(new URL('../fixtures/pipelines/bad/', import.meta.url));
const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'u', ENGINE_PASSWORD: 'p' };

interface Expectation {
  line: number;
  col: number;
  message: string;
  hint?: string;
}

function expectations(text: string): Expectation[] {
  return [...text.matchAll(/^# expect: (\d+):(\d+) ([^|\n]*?)(?: \| (.*))?$/gm)].map((m) => ({
    line: Number(m[1]),
    col: Number(m[2]),
    message: m[3]!.trim(),
    ...(m[4] ? { hint: m[4].trim() } : {}),
  }));
}

const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.yml'))
  .sort();

for (const name of fixtures) {
  test(`bad fixture ${name} is reported at its expected location`, () => {
    const text = readFileSync(join(dir, name), 'utf8');
    const expected = expectations(text);
    assert.ok(expected.length > 0, 'the fixture declares what it expects');
    let error: PipelineInvalid | undefined;
    try {
      loadPipeline({ file: name, text, env });
    } catch (e) {
      error = e as PipelineInvalid;
    }
    assert.ok(error instanceof PipelineInvalid, 'the pipeline is refused');
    assert.equal(error.exitCode, 2);
    for (const want of expected) {
      const found: Diagnostic | undefined = error.diagnostics.find(
        (d) => d.line === want.line && d.col === want.col && d.message.startsWith(want.message),
      );
      assert.ok(
        found,
        `expected ${want.line}:${want.col} ${want.message}\ngot:\n${error.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`,
      );
      if (want.hint) assert.equal(found.hint, want.hint);
    }
  });
}

test('enginectl validate on every bad fixture exits 2 and prints each FILE:LINE:COL with the line', async () => {
  const files = fixtures.map((f) => join('test/fixtures/pipelines/bad', f));
  // --check-env: the environment's checks (missing-secrets.yml) are validate's too when asked.
  const r = await runCli(['validate', '--check-env', ...files], { env });
  assert.equal(r.code, 2);
  for (const file of files) {
    for (const want of expectations(readFileSync(file, 'utf8'))) {
      assert.ok(
        r.stderr.includes(`${file}:${want.line}:${want.col} ${want.message}`),
        `${file}:${want.line}:${want.col} in:\n${r.stderr}`,
      );
    }
  }
  assert.match(r.stderr, /\n {2}\d+ \| .*\n {2} +\| +\^/, 'the offending line and a caret are shown');
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
});

test("validate prints the code under each file's problems, as every command prints it under its error", async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'enginectl-validate-code-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const bad = join(tmp, 'bad.yml');
  writeFileSync(bad, 'version: 1\nsteps:\n  - uses: monitoring/nope\n');
  const missing = join(tmp, 'missing.yml');
  const r = await runCli(['validate', bad, 'pipelines/demo.yml', missing]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^1 problem\(s\) in .*bad\.yml\n {2}code: PIPELINE_INVALID\n/m);
  assert.match(
    r.stderr,
    /cannot read the pipeline: no such file\n1 problem\(s\) in .*missing\.yml\n {2}code: PIPELINE_INVALID\n$/,
  );
  // The same lines run prints for the file, but for its "enginectl: " lead.
  const run = await runCli(['run', bad], { env });
  const first = r.stderr.slice(
    0,
    r.stderr.indexOf('\n  code: PIPELINE_INVALID\n') + '\n  code: PIPELINE_INVALID\n'.length,
  );
  assert.equal(`enginectl: ${first}`, run.stderr);
});

test('every pipeline in pipelines/ validates (exit 0)', async () => {
  const files = readdirSync('pipelines')
    .filter((f) => f.endsWith('.yml'))
    .map((f) => join('pipelines', f));
  assert.ok(files.length >= 5);
  const secrets = { PROD_TOKEN: 'a', STAGING_TOKEN: 'b', PROD_DEPLOY_PASSWORD: 'c', QA_TOKEN: 'd' };
  const r = await runCli(['validate', ...files], { env: { ...env, ...secrets } });
  assert.equal(r.code, 0, r.stderr);
  for (const f of files) assert.match(r.stdout, new RegExp(`^${f}: valid \\(\\d+ steps?\\)$`, 'm'));
  const emulator = await runCli(['validate', '--emulator', ...files], { env: secrets });
  assert.equal(emulator.code, 0, emulator.stderr);
  const noServer = await runCli(['validate', '--check-env', 'pipelines/demo.yml'], { env: secrets });
  assert.equal(noServer.code, 2);
  assert.equal(noServer.stderr.match(/no server to call/g)?.length, 1, 'said once per file');
  // Without --check-env, validate needs no secret and no server: a pull request from a fork.
  const bare = await runCli(['validate', ...files], { env: {} });
  assert.equal(bare.code, 0, bare.stderr);
  const missing = await runCli(['validate', join(dir, 'missing-secrets.yml')], { env: {} });
  assert.equal(missing.code, 0, `the environment is run's to check: ${missing.stderr}`);
  const run = await runCli(['run', join(dir, 'missing-secrets.yml')], { env });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /secrets\.PROD_TOKEN is not set/, 'run checks it before the first call');
});

test('a matrix of a billion instances is refused at its line by validate and matrix, not expanded until memory runs out', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-matrix-size-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const values = `[${Array.from({ length: 1000 }, (_, i) => i).join(', ')}]`;
  const file = join(dir, 'billion.yml');
  writeFileSync(
    file,
    `version: 1\nsteps:\n  - uses: monitoring/alerts\n    matrix: { a: ${values}, b: ${values}, c: ${values} }\n`,
  );
  for (const args of [
    ['validate', file],
    ['matrix', file],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /billion\.yml:4:13 the matrix makes 1,000,000,000 instances \(1,000 x 1,000 x 1,000\): a step runs at most 10,000\n/,
    );
  }
});

test('update/vfs with empty files and directories ([], "", " , ") is refused by validate at its line, as the API would refuse the update (400); an expression for them is checked at run time', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-vfs-empty-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'empty.yml');
  writeFileSync(
    file,
    `version: 1
vars:
  files: [1001]
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    with: { target: prod, files: [] }
  - uses: update/vfs
    with: { target: prod, files: " , ", directories: "" }
  - uses: update/vfs
    with: { target: prod, files: "\${{ vars.files }}" }
  - uses: update/vfs
    with: { target: prod, directories: /reports }
`,
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /empty\.yml:8:\d+ steps\[0\]\.with\.files: update\/vfs needs files or directories/);
  assert.match(r.stderr, /empty\.yml:10:\d+ steps\[1\]\.with\.files: update\/vfs needs files or directories/);
  assert.match(r.stderr, /^2 problem\(s\)/m);
});

test("a call timeout under 1s (a step's, the defaults', a server's) is refused at its line: a write sent and cut at once is left in doubt", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-timeout-zero-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'zero.yml');
  writeFileSync(
    file,
    `version: 1
defaults:
  timeout: 500ms
servers:
  main: { url: "https://engine.example.com", username: a, password: b, timeout: 0s }
steps:
  - uses: transaction-log/clear
    timeout: 0s
  - uses: transaction-log/clear
    timeout: 1s
`,
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  for (const line of [3, 5, 8])
    assert.match(r.stderr, new RegExp(`zero\\.yml:${line}:\\d+ .*a call's timeout is at least 1s`));
  assert.match(r.stderr, /^3 problem\(s\)/m);
});

test('an expression in a mapping key is refused at its position: a key is never evaluated, and was sent as its text', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-key-expr-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'key.yml');
  writeFileSync(
    file,
    `version: 1
vars:
  k: istatus
steps:
  - uses: api/request
    with:
      path: /api/classes/v1/classes/21/entities
      query: { "\${{ vars.k }}": open }
`,
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /key\.yml:8:16 an expression in a key is not evaluated: it would be sent as written/);
});

test("a function whose literal argument cannot work (format()'s {2} with one argument, a lone brace, fromJSON() of text that is not JSON) is refused by validate at its column, not when the step runs after earlier writes", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-literal-args-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'literal.yml');
  writeFileSync(
    file,
    `version: 1
vars:
  a: x
steps:
  - uses: assert
    with: { that: "true", message: "\${{ format('{0} {2}', vars.a) }}" }
  - uses: assert
    with: { that: "format('{0', vars.a) == 'x'" }
  - uses: assert
    with: { that: "fromJSON('{bad').a == 1" }
  - uses: assert
    with: { that: "format('{0}-{{}}', vars.a) == fromJSON('\\"x-{}\\"')" }
`,
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /literal\.yml:6:41 invalid expression: format\(\): \{2\} has no argument/);
  assert.match(r.stderr, /literal\.yml:8:20 invalid expression: format\(\): a lone \{ in the format string/);
  assert.match(r.stderr, /literal\.yml:10:20 invalid expression: fromJSON\(\): not valid JSON/);
  assert.doesNotMatch(r.stderr, /literal\.yml:12:/, 'a format and a fromJSON that work are not refused');
});

test("an expression's problem is said at its own line and column whatever the string's style: a literal or folded block, a double-quoted string's escapes, a single-quoted string's '', a plain string over two lines", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-positions-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'pos.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - uses: assert
    with:
      that: "true"
      message: |
        first line
        then \${{ vars.nope1 }}
  - uses: assert
    with:
      that: >-
        \${{ vars.nope2 }}
  - uses: assert
    with: { that: "true", message: "a\\tb \${{ vars.nope3 }}" }
  - uses: assert
    with: { that: "true", message: 'it''s \${{ vars.nope4 }}' }
  - uses: assert
    with:
      that: "true"
      message: a plain
        folded \${{ vars.nope5 }}
  - uses: assert
    with:
      that: "true"
      message: "a \\u00e9 \\x41 \${{ vars.nope6 }}"
  - uses: assert
    with: { that: "vars.nope6 ==" }
  - uses: assert
    with:
      that: vars.nope6 ==
`,
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  const said = [...r.stderr.matchAll(/pos\.yml:(\d+:\d+) unknown var "(nope\d)"/g)].map(
    ([, at, name]) => `${name} ${at}`,
  );
  assert.deepEqual(said, ['nope1 8:18', 'nope2 12:13', 'nope3 14:46', 'nope4 16:47', 'nope5 21:20', 'nope6 25:35']);
  // A problem at the very end of the value (the expression ends too early) is at its end, not its start.
  const ends = [...r.stderr.matchAll(/pos\.yml:(\d+:\d+) invalid expression: the expression ends too early/g)].map(
    ([, at]) => at,
  );
  assert.deepEqual(ends, ['27:33', '30:26']);
});

test("a second YAML document, an unknown tag and a condition that is a list are refused in words a pipeline author reads, each with a hint, not in the YAML library's or the runner's", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-yaml-words-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const step = 'version: 1\nsteps:\n  - uses: assert\n    with: { that: "true" }\n';
  const cases: [string, RegExp][] = [
    [
      write('two.yml', `${step}---\nversion: 1\n`),
      /two\.yml:5:1 a second YAML document: a pipeline \(or inventory\) file is one document\n(.*\n){2} {2}hint: remove the --- line/,
    ],
    [
      write('tag.yml', 'version: 1\nsteps:\n  - uses: !custom assert\n    with: { that: "true" }\n'),
      /tag\.yml:3:11 !custom is not a YAML tag enginectl reads.*\n(.*\n){2} {2}hint: remove the tag/,
    ],
    [
      write('list.yml', 'version: 1\nsteps:\n  - uses: assert\n    with: { that: [1] }\n'),
      /list\.yml:4:19 steps\[0\]\.with\.that: a condition: an expression as text/,
    ],
  ];
  for (const [file, says] of cases) {
    const r = await runCli(['validate', file]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, says);
    assert.doesNotMatch(r.stderr, /parseAllDocuments|compiled condition/);
  }
});

test('validate --check-env refuses a server URL run refuses before its first call: the same code and words, for ENGINE_URL and a URL from a secret', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'enginectl-check-env-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const plain = join(tmp, 'plain.yml');
  writeFileSync(plain, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const fromSecret = join(tmp, 'from-secret.yml');
  writeFileSync(
    fromSecret,
    `version: 1
servers:
  prod: { url: "\${{ secrets.PROD_URL }}", username: deployer, password: "\${{ secrets.PROD_PASSWORD }}" }
steps:
  - uses: transaction-log/clear
`,
  );
  const login = { ENGINE_USERNAME: 'u', ENGINE_PASSWORD: 'pw-98765' };
  const cases: [string, Record<string, string>, string][] = [
    [plain, { ...login, ENGINE_URL: 'http://prod.example.com' }, 'INSECURE_HTTP'],
    [plain, { ...login, ENGINE_URL: 'https://prod.example.com:99999' }, 'BAD_SERVER_URL'],
    [plain, { ...login, ENGINE_URL: 'http://u:p4ss@prod.example.com' }, 'BAD_SERVER_URL'],
    [fromSecret, { PROD_URL: 'http://prod-7.example.com', PROD_PASSWORD: 'pw-98765' }, 'INSECURE_HTTP'],
  ];
  for (const [file, given, code] of cases) {
    const run = await runCli(['run', file], { env: given });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(`\\n {2}code: ${code}\\n$`));
    const checked = await runCli(['validate', file, '--check-env'], { env: given });
    assert.equal(checked.code, 2, `${JSON.stringify(given)}: ${checked.stdout}${checked.stderr}`);
    assert.equal(checked.stdout, '');
    // Run's lines, the file named where run names itself.
    assert.equal(checked.stderr, run.stderr.replace(/^enginectl: /, `${file}: `));
    assert.doesNotMatch(checked.stderr, /p4ss|prod-7/, 'no secret in it');
    // Without --check-env, validate needs no environment.
    const bare = await runCli(['validate', file], { env: given });
    assert.equal(bare.code, 0, bare.stderr);
  }
  // What run lets through, --check-env does too: https, or plain http:// allowed.
  for (const given of [
    { ...login, ENGINE_URL: 'https://prod.example.com' },
    { ...login, ENGINE_URL: 'http://prod.example.com', ENGINE_ALLOW_INSECURE_HTTP: 'true' },
  ]) {
    const ok = await runCli(['validate', plain, '--check-env'], { env: given });
    assert.equal(ok.code, 0, ok.stderr);
  }
});
