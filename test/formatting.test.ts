// The codebase is formatted by prettier with the project's settings, and `npm run lint` says so
// when it is not: a file written otherwise fails the check, naming the file.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');

test('npm run lint runs prettier --check over the whole tree', () => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  assert.match(scripts.lint!, /prettier --check \./);
});

test("a file formatted otherwise fails the project's check, and the formatter's output passes it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-format-'));
  copyFileSync(join(root, '.prettierrc.json'), join(dir, '.prettierrc.json'));
  writeFileSync(join(dir, 'bad.ts'), 'const  a = {b:"c",\n d : [1,2]}\nexport default a\n');
  const bad = spawnSync(process.execPath, [prettier, '--check', '.'], { cwd: dir, encoding: 'utf8' });
  assert.equal(bad.status, 1, bad.stdout + bad.stderr);
  assert.match(bad.stdout + bad.stderr, /bad\.ts/);
  execFileSync(process.execPath, [prettier, '--write', 'bad.ts'], { cwd: dir });
  assert.equal(readFileSync(join(dir, 'bad.ts'), 'utf8'), "const a = { b: 'c', d: [1, 2] };\nexport default a;\n");
  const good = spawnSync(process.execPath, [prettier, '--check', '.'], { cwd: dir, encoding: 'utf8' });
  assert.equal(good.status, 0, good.stdout + good.stderr);
});
