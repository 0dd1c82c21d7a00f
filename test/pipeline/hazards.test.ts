// Files that are odd rather than wrong: BOM, CRLF, huge, a directory, empty, not UTF-8, and keys
// that name prototypes. Each is read or refused with a message and exit 2, never a crash.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { useColour } from '../../src/cli/terminal-logger.ts';
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
  const r = await runCli(['validate', file('bom.yml', `\uFEFF${valid}`), file('crlf.yml', valid.replace(/\n/g, '\r\n'))], { env });
  assert.equal(r.code, 0, r.stderr);
});

test('CRLF files report the right line and column', async () => {
  const r = await runCli(['validate', file('crlf-bad.yml', 'version: 1\r\nsteps:\r\n  - uses: transaction-log/clear\r\n    colour: red\r\n')], { env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /crlf-bad\.yml:4:5 unknown key "colour"/);
});

test('empty, huge, a directory, missing, and not UTF-8: exit 2 with a message each', async () => {
  const cases: [string, RegExp][] = [
    [file('empty.yml', '# only a comment\n'), /empty\.yml:1:1 the file is empty/],
    [file('huge.yml', `${valid}# ${'x'.repeat(1024 * 1024)}\n`), /huge\.yml:1:1 the file is \d+ bytes; pipelines are limited to 1048576 bytes/],
    [dir, /:1:1 cannot read the pipeline: it is a directory/],
    [join(dir, 'missing.yml'), /missing\.yml:1:1 cannot read the pipeline: no such file/],
    [file('latin1.yml', Buffer.concat([Buffer.from('version: 1\nname: caf'), Buffer.from([0xe9]), Buffer.from('\nsteps:\n  - uses: assert\n    with: { that: true }\n')])), /latin1\.yml:1:1 the file is not valid UTF-8/],
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
