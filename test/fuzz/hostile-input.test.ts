// Named hostile files: odd rather than wrong (BOM, CRLF), or built to hurt (alias bombs, deep
// nesting, huge scalars, prototype keys, duplicate keys, tabs, bytes that are not UTF-8, a
// directory, an unreadable or empty file, 10,000 steps). Each is read or refused with a location
// and exit 2, never a crash or a stack trace.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { useColour } from '../../src/log/run-log.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { runCli } from '../helpers/cli.ts';

const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'u', ENGINE_PASSWORD: 'p' };
const dir = mkdtempSync(join(tmpdir(), 'enginectl-hazards-'));
const file = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};
const valid = 'version: 1\nsteps:\n  - uses: transaction-log/clear\n';

test('a BOM and CRLF line ends are read as usual', async () => {
  const r = await runCli(
    ['validate', file('bom.yml', `\uFEFF${valid}`), file('crlf.yml', valid.replace(/\n/g, '\r\n'))],
    { env },
  );
  assert.equal(r.code, 0, r.stderr);
});

test('CRLF files report the right line and column', async () => {
  const r = await runCli(
    [
      'validate',
      file('crlf-bad.yml', 'version: 1\r\nsteps:\r\n  - uses: transaction-log/clear\r\n    colour: red\r\n'),
    ],
    { env },
  );
  assert.equal(r.code, 2);
  assert.match(r.stderr, /crlf-bad\.yml:4:5 unknown key "colour"/);
});

test('empty, huge, a directory, missing, and not UTF-8: exit 2 with a message each', async () => {
  const cases: [string, RegExp][] = [
    [file('empty.yml', '# only a comment\n'), /empty\.yml:1:1 the file is empty/],
    [
      file('huge.yml', `${valid}# ${'x'.repeat(1024 * 1024)}\n`),
      // The hint names what the docs give to split a file: inventories it includes (no "vars files").
      /huge\.yml:1:1 the file is \d+ bytes; pipelines are limited to 1048576 bytes \(1 MiB\)\n {2}hint: move its servers, targets, vars, windows and freezes into inventories it includes \(include:, docs\/pipeline-format\.md\), or split its steps into several pipelines\n/,
    ],
    [dir, /:1:1 cannot read the pipeline: it is a directory/],
    [join(dir, 'missing.yml'), /missing\.yml:1:1 cannot read the pipeline: no such file/],
    [
      file(
        'latin1.yml',
        Buffer.concat([
          Buffer.from('version: 1\nname: caf'),
          Buffer.from([0xe9]),
          Buffer.from('\nsteps:\n  - uses: assert\n    with: { that: true }\n'),
        ]),
      ),
      /latin1\.yml:1:1 the file is not valid UTF-8/,
    ],
    [file('list.yml', '- a\n- b\n'), /list\.yml:1:1 a pipeline file is a mapping/],
  ];
  for (const [path, pattern] of cases) {
    const r = await runCli(['validate', path], { env });
    assert.equal(r.code, 2, path);
    assert.match(r.stderr, pattern);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});

test('__proto__ and constructor are plain keys: vars keep them and nothing is polluted', () => {
  const { pipeline } = loadPipeline({
    file: 'p.yml',
    text: 'version: 1\nvars:\n  __proto__: { polluted: yes }\n  constructor: 3\nsteps:\n  - uses: assert\n    with: { that: "${{ vars.constructor == 3 }}" }\n',
    env,
  });
  assert.deepEqual(Object.keys(pipeline.vars), ['__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(pipeline.vars), null);
});

test('colour only on a terminal, and never with NO_COLOR or TERM=dumb', () => {
  assert.equal(useColour(true, {}), true);
  assert.equal(useColour(false, {}), false);
  assert.equal(useColour(true, { NO_COLOR: '' }), false);
  assert.equal(useColour(true, { TERM: 'dumb' }), false);
});

test('an alias bomb is refused at once, without expanding it', async () => {
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 12; i++)
    levels.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(',')}]`,
    );
  const r = await runCli(
    [
      'validate',
      file(
        'bomb.yml',
        `version: 1\nvars:\n  ${levels.join('\n  ')}\nsteps:\n  - uses: assert\n    with: { that: true }\n`,
      ),
    ],
    { env },
  );
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /bomb\.yml:1:1 the document expands too far: .*\n(.*\n){2}\s+hint: use fewer aliases \(at most 100 expansions\)/,
  );
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('deep nesting: 10,000 levels is refused with a location, 50 levels is read', async () => {
  const deep = `version: 1\nvars:\n  deep: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n${valid.slice('version: 1\n'.length)}`;
  const r = await runCli(['validate', file('deep.yml', deep)], { env });
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /deep\.yml:\d+:\d+ the document nests too deeply \(more than 100 levels\)/);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at |call stack/);
  const ok = `version: 1\nvars:\n  deep: ${'['.repeat(50)}${']'.repeat(50)}\n${valid.slice('version: 1\n'.length)}`;
  const read = await runCli(['validate', file('nested.yml', ok)], { env });
  assert.equal(read.code, 0, read.stderr);
});

test('huge scalars: a 900 KB value is read; a message about it stays short', async () => {
  const big = 'x'.repeat(900 * 1024);
  const r = await runCli(
    ['validate', file('big.yml', `version: 1\nvars:\n  blob: ${big}\n${valid.slice('version: 1\n'.length)}`)],
    { env },
  );
  assert.equal(r.code, 0, r.stderr.slice(0, 500));
  const wrong = await runCli(
    [
      'validate',
      file('big-wrong.yml', `version: 1\nsteps:\n  - uses: assert\n    with: { that: true, message: [${big}] }\n`),
    ],
    { env },
  );
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /big-wrong\.yml:4:\d+ /);
  assert.ok(wrong.stderr.length < 4000, `the message quotes the line, not the value: ${wrong.stderr.length} chars`);
});

test('__proto__ and constructor as keys of with, targets, servers, matrix and steps: located problems, no pollution', async () => {
  const cases: [string, RegExp][] = [
    [
      'version: 1\nsteps:\n  - uses: transaction-log/clear\n    with: { __proto__: { polluted: 1 } }\n',
      /:4:13 unknown key "__proto__"/,
    ],
    [
      'version: 1\ntargets:\n  __proto__: { server: s, database: D, token: t }\nsteps:\n  - uses: update/vfs\n    with: { target: __proto__, files: [1] }\n',
      /valid|:\d+:\d+ /,
    ],
    [
      'version: 1\nservers:\n  constructor: { url: "http://127.0.0.1:9" }\nsteps:\n  - uses: transaction-log/clear\n',
      /valid|:\d+:\d+ /,
    ],
    [
      'version: 1\nsteps:\n  - uses: update/vfs\n    matrix: { __proto__: [prod] }\n    with: { target: prod, files: [1] }\n',
      /:\d+:\d+ /,
    ],
    ['version: 1\nsteps:\n  - uses: transaction-log/clear\n    constructor: 1\n', /:4:5 unknown key "constructor"/],
  ];
  for (const [i, [text, pattern]] of cases.entries()) {
    const r = await runCli(['validate', file(`proto-${i}.yml`, text)], { env });
    assert.ok(r.code === 0 || r.code === 2, `${text}: exit ${r.code}`);
    assert.match(r.code === 0 ? 'valid' : r.stderr, pattern, text);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, text);
  }
});

test('a duplicate key is refused at the second one', async () => {
  const r = await runCli(
    ['validate', file('dup.yml', 'version: 1\nsteps:\n  - uses: transaction-log/clear\n    uses: replication/sync\n')],
    { env },
  );
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /dup\.yml:4:5 duplicate key "uses": a key may appear once in a mapping\n.*\n.*\n\s+hint: remove or rename one of them/,
  );
});

test('tabs for indentation are refused at the tab, saying so', async () => {
  const r = await runCli(['validate', file('tabs.yml', 'version: 1\nsteps:\n\t- uses: transaction-log/clear\n')], {
    env,
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /tabs\.yml:3:1 .*[Tt]ab/);
});

test('an unreadable file: exit 2, "permission denied"', async () => {
  const locked = join(mkdtempSync(join(tmpdir(), 'enginectl-locked-')), 'locked.yml');
  writeFileSync(locked, valid);
  chmodSync(dirname(locked), 0o755);
  chmodSync(locked, 0o000);
  // root reads anything: run as nobody then, as a CI runner's user would be
  const r = await runCli(['validate', locked], { env, ...(process.getuid?.() === 0 ? { uid: 65534 } : {}) });
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /locked\.yml:1:1 cannot read the pipeline: permission denied/);
});

test('a pipeline of 10,000 steps validates', async () => {
  const steps = Array.from(
    { length: 10_000 },
    (_, i) => `  - id: s${i}\n    uses: assert\n    with: { that: "\${{ ${i} >= 0 }}" }\n`,
  ).join('');
  const r = await runCli(['validate', file('ten-thousand.yml', `version: 1\nsteps:\n${steps}`)], { env });
  assert.equal(r.code, 0, r.stderr.slice(0, 500));
  assert.match(r.stdout, /ten-thousand\.yml: valid \(10000 steps\)/);
});

test('a mapping used as a key (`?` explicit key): one located line, no process warning', async () => {
  const text =
    'version: 1\nsteps:\n  - uses: transaction-log/clear\n? - { id: a, uses: assert }\n  - { id: b, uses: assert }\n';
  const r = await runCli(['validate', file('complex-key.yml', text)], { env });
  assert.equal(r.code, 2);
  const lines = r.stderr.trimEnd().split('\n');
  assert.match(lines[0]!, /complex-key\.yml:\d+:\d+ unknown key "\[ .* in the pipeline$/);
  for (const line of lines) assert.match(line, /^(\S+:\d+:\d+ | {2}|\d+ problem\(s\))/, line);
  assert.doesNotMatch(r.stderr, /Warning:|trace-warnings/);
});
