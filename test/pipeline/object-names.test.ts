// Names every JavaScript object holds, as matrix keys: refused where they stand. Before, a matrix
// keyed `__proto__` read as no matrix (two values ran once, with none), one keyed `constructor`
// or `toString` passed validate and crashed the run ("internal error: out.push is not a
// function"), and --only or --skip naming one crashed ("values.includes is not a function"): it is
// now refused as a key no matrix step has. vars keep such names as plain keys (test/fuzz).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const pipeline = (matrix: string) => `version: 1
name: Names
steps:
  - uses: transaction-log/clear
    matrix: { ${matrix}: [a, b] }
`;

test('a matrix key named __proto__, constructor or toString is refused where it stands; --only and --skip naming one say no matrix step has it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-object-names-'));
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const proto = await runCli(['run', file('proto.yml', pipeline('__proto__')), '--emulator']);
  assert.equal(proto.code, 2, proto.stdout + proto.stderr);
  assert.match(
    proto.stderr,
    /proto\.yml:5:15 matrix\.__proto__: a matrix key may not be a name every JavaScript object holds/,
  );
  for (const key of ['constructor', 'toString']) {
    const r = await runCli(['validate', file(`${key}.yml`, pipeline(key))]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stdout + r.stderr,
      new RegExp(`${key}\\.yml:5:15 matrix\\.${key}: a matrix key may not be a name every JavaScript object holds`),
    );
    assert.doesNotMatch(r.stdout + r.stderr, /internal error/);
  }
  const sites = file('sites.yml', pipeline('site'));
  for (const [flag, key] of [
    ['--only', 'constructor'],
    ['--skip', '__proto__'],
  ]) {
    const r = await runCli(['run', sites, '--emulator', flag!, `${key}=a`]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`${flag} ${key}=a: no matrix step has the key "${key}"`));
    assert.match(r.stderr, /code: BAD_ONLY/);
  }
});
