// lease: { over: KEY } takes a lease per value of the matrix key KEY the run selects: a KEY that no
// step's matrix has takes no lease at all. validate refuses it at the over: value's file:line:col,
// naming the key and the keys there are (PIPELINE_INVALID, exit 2), and so does run before it
// touches its store: no lease taken, nothing sent. Through the CLI (runCli), a directory store.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

function pipeline(lease: string, matrix: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-over-key-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: fleet
lease: ${lease}
steps:
  - id: a
    uses: monitoring/alerts
${matrix}    with: { fail-on: critical }
`,
  );
  return { dir, file };
}

test('lease over: a key no step has a matrix over: validate refuses it at the over: value, naming the key and the keys there are (exit 2)', async () => {
  const { file } = pipeline('{ name: prod-fleet, over: sites }', '    matrix: { site: [london, paris], tier: [a] }\n');
  const r = await runCli(['validate', file]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.match(
    r.stdout + r.stderr,
    /fleet\.yml:3:34 lease prod-fleet: over: sites is no matrix key of the pipeline's steps: it would take no lease/,
    said,
  );
  assert.match(r.stdout + r.stderr, /hint: did you mean "site"\? matrix keys: site, tier/, said);
  assert.match(r.stdout + r.stderr, /code: PIPELINE_INVALID/, said);
});

test('lease over: a key, and no step has a matrix: validate says so and what to do (exit 2)', async () => {
  const { file } = pipeline('{ name: prod-fleet, over: site }', '');
  const r = await runCli(['validate', file]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.match(r.stdout + r.stderr, /fleet\.yml:3:34 lease prod-fleet: over: site is no matrix key/, said);
  assert.match(
    r.stdout + r.stderr,
    /hint: no step has a matrix: give the steps of each site matrix: \{ site: \[\.\.\.\] \}, or drop over: for one lease of the whole fleet/,
    said,
  );
});

test('run --store of a pipeline whose lease is over a key no step has: refused as invalid before its store is touched (PIPELINE_INVALID, exit 2)', async () => {
  const { dir, file } = pipeline('{ name: prod-fleet, over: sites }', '    matrix: { site: [london, paris] }\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const r = await runCli(['run', file, '--emulator', '--store', `file://${store}`]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.match(
    r.stderr,
    /fleet\.yml:3:34 lease prod-fleet: over: sites is no matrix key of the pipeline's steps/,
    said,
  );
  assert.match(r.stderr, /code: PIPELINE_INVALID/, said);
  assert.doesNotMatch(r.stderr, /takes no value in this run/, said);
  assert.deepEqual(readdirSync(store), [], 'nothing written in the store');
  assert.equal(existsSync(join(store, 'leases')), false);
});

test("a run that selects none of its lease's over: values is told that cause alone: the key's values and what it selected (BAD_ARGUMENTS, exit 2), not 'no matrix key … or'", async () => {
  const { dir, file } = pipeline('{ name: prod-fleet, over: site }', '    matrix: { site: [london, paris] }\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const r = await runCli([
    'run',
    file,
    '--emulator',
    '--store',
    `file://${store}`,
    '--skip',
    'site=london',
    '--skip',
    'site=paris',
  ]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.match(
    r.stderr,
    /lease prod-fleet: over: site takes no value in this run: the run selects none of the values of site \(london, paris\): without site=london; without site=paris/,
    said,
  );
  assert.doesNotMatch(r.stderr, /no matrix key|\bor the run selects\b/, said);
  assert.match(
    r.stderr,
    /hint: give --only or --skip that leaves a value of site to this run, or drop over: for one lease of the whole fleet/,
    said,
  );
  assert.match(r.stderr, /code: BAD_ARGUMENTS\n$/, said);
});
