// The files GitHub reads: every action.yml valid against SchemaStore's schema and generated from
// src/action/definitions.ts; the tables of docs/actions.md current; each single-step action exposing its
// step's inputs; the committed bundles what the build makes; the docs' workflows valid.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import type { z } from 'zod';
import { renderActionYml, withActionTables } from '../../src/action/action-yml.ts';
import { ACTIONS, actionDir } from '../../src/action/definitions.ts';
import { STEP_TYPES } from '../../src/steps/registry.ts';
import { resolved } from '../../src/steps/types.ts';
import { ROOT } from '../helpers/action.ts';
import { draft07, SHARED, sharedPresent, VENDORED } from '../helpers/schemas.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

test("every action.yml is valid against SchemaStore's github-action schema and runs on node24", () => {
  const validate = draft07('github-action.schema.json');
  for (const def of ACTIONS) {
    const file = join(actionDir(def), 'action.yml');
    const doc = parse(read(file)) as { runs: { using: string; main: string } };
    assert.ok(validate(doc), `${file}: ${JSON.stringify(validate.errors)}`);
    assert.equal(doc.runs.using, 'node24');
    assert.ok(existsSync(join(ROOT, actionDir(def), doc.runs.main)), `${file}: runs.main ${doc.runs.main} exists`);
    for (const [name, input] of Object.entries(
      (doc as unknown as { inputs: Record<string, { description?: string }> }).inputs,
    ))
      assert.ok(input.description, `${file}: input ${name} has a description`);
  }
});

test('the action.yml files and the tables of docs/actions.md are generated from definitions.ts and current', () => {
  for (const def of ACTIONS)
    assert.equal(
      read(join(actionDir(def), 'action.yml')),
      renderActionYml(def),
      `${actionDir(def)}/action.yml is stale: run npm run actions`,
    );
  const readme = read('docs/actions.md');
  assert.equal(readme, withActionTables(readme, ACTIONS), 'docs/actions.md tables are stale: run npm run actions');
  for (const def of ACTIONS)
    for (const name of Object.keys(def.inputs))
      assert.ok(readme.includes(`| \`${name}\` |`), `docs/actions.md lists input ${name}`);
});

test('each single-step action offers every input of its step type (target and source as fields)', () => {
  const NOT_INPUTS = new Set(['target', 'source', 'online-index-drop', 'online-index-creation']);
  for (const def of ACTIONS.filter((a) => a.uses)) {
    const schema = STEP_TYPES.get(def.uses!)!.inputs(resolved) as unknown as z.ZodObject;
    for (const key of Object.keys(schema.shape)) {
      if (NOT_INPUTS.has(key)) continue;
      assert.ok(key in def.inputs, `${def.id} lacks input ${key} of ${def.uses}`);
    }
    if ('target' in schema.shape)
      for (const f of ['server', 'database', 'token', 'username', 'password']) assert.ok(`target-${f}` in def.inputs);
  }
});

test('the committed dist/ is what the build makes (run npm run build and commit dist/)', async () => {
  const { buildAll } = (await import(join(ROOT, 'build.mjs'))) as {
    buildAll(outdir: string, overrides: object): Promise<void>;
  };
  const out = mkdtempSync(join(tmpdir(), 'enginectl-dist-'));
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    await buildAll(out, { logLevel: 'silent' });
  } finally {
    process.chdir(cwd);
  }
  const list = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? list(join(dir, e.name)) : [join(dir, e.name)],
    );
  const built = list(out)
    .map((f) => relative(out, f))
    .sort();
  const committed = list(join(ROOT, 'dist'))
    .map((f) => relative(join(ROOT, 'dist'), f))
    .filter((f) => f === 'cli.mjs' || f.startsWith('cli/') || f.startsWith('action/'))
    .sort();
  assert.deepEqual(committed, built, 'the same files');
  for (const f of built)
    assert.ok(
      readFileSync(join(out, f)).equals(readFileSync(join(ROOT, 'dist', f))),
      `dist/${f} is stale: run npm run build`,
    );
});

test("every example workflow in docs/github-actions.md is valid against SchemaStore's workflow schema", () => {
  const validate = draft07('github-workflow.schema.json');
  const blocks = [...read('docs/github-actions.md').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const workflows = blocks.map((b) => parse(b) as Record<string, unknown>).filter((w) => w.jobs);
  assert.ok(workflows.length >= 4, `four workflows at least (${workflows.length})`);
  for (const w of workflows)
    assert.ok(validate(w), `${String(w.name)}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  const text = blocks.join('\n');
  for (const needle of [
    'enginectl/enginectl@v1',
    'actions/vfs-update@v1',
    'actions/replication-sync@v1',
    'concurrency:',
    'fromJSON(needs.plan.outputs.matrix)',
    'dist/cli.mjs matrix',
    'only: target=',
  ]) {
    assert.ok(text.includes(needle), `the examples show ${needle}`);
  }
  // Every `with:` key of our actions in the examples is a real input.
  for (const w of workflows) {
    for (const job of Object.values(
      w.jobs as Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }>,
    )) {
      for (const step of job.steps ?? []) {
        const m = /^enginectl\/enginectl(?:\/actions\/([\w-]+))?@/.exec(step.uses ?? '');
        if (!m) continue;
        const def = ACTIONS.find((a) => a.id === (m[1] ?? 'enginectl'))!;
        for (const key of Object.keys(step.with ?? {})) assert.ok(key in def.inputs, `${step.uses}: no input ${key}`);
      }
    }
  }
});

test('every credential input of every action is declared secret, so it is masked before anything is printed', () => {
  for (const def of ACTIONS) {
    for (const [name, input] of Object.entries(def.inputs)) {
      if (/password|token|webhook/.test(name)) assert.equal(input.secret, true, `${def.id}: input ${name}`);
      else assert.equal(input.secret, undefined, `${def.id}: input ${name} is no credential`);
    }
  }
});

test('the vendored reference schemas are the ones in ../shared/schemas', (t) => {
  if (!sharedPresent()) {
    t.diagnostic(
      `../shared/schemas is not beside this checkout; the vendored copies in ${VENDORED} are used as they are`,
    );
    return;
  }
  for (const name of ['github-action.schema.json', 'github-workflow.schema.json', 'junit-10.xsd']) {
    assert.equal(
      readFileSync(join(VENDORED, name), 'utf8'),
      readFileSync(join(SHARED, name), 'utf8'),
      `${name} differs from ../shared/schemas`,
    );
  }
});
