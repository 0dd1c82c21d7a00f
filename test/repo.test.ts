// The repository as a newcomer and CI meet it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { VERSION } from '../src/version.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

test('the README opens with the main-job command and the test command', () => {
  const firstLines = read('README.md').split('\n').slice(0, 6).join('\n');
  assert.match(firstLines, /npm ci && npm run demo/);
  assert.match(firstLines, /npm ci && npm test/);
});

test(".ci/run runs the README's test command and checks dist/ is current", () => {
  const ci = read('.ci/run');
  assert.match(ci, /^npm test$/m);
  assert.match(ci, /^npx -y node@24 scripts\/run-tests\.mjs$/m, 'and the suite on Node 24');
  assert.match(ci, /git status --porcelain -- dist\//, 'a chunk the build adds counts too, not only a changed file');
});

test('the CLI reports the package version, and the package bin is the committed bundle', () => {
  const pkg = JSON.parse(read('package.json')) as {
    version: string;
    bin: Record<string, string>;
    engines: { node: string };
  };
  assert.equal(VERSION, pkg.version);
  assert.equal(pkg.bin.enginectl, 'dist/cli.mjs');
  assert.match(read('dist/cli.mjs'), /^#!\/usr\/bin\/env node\n/);
});
