// Inventories (include:): servers, targets and vars shared by pipelines. The three-site release
// runs from one inventory on the embedded emulator; problems in an inventory are located in it;
// a name defined twice names both places; `matrix` reads through includes; the inventory schema
// is generated and current.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test("the three-site release runs from its inventory on the emulator: every step once per site, gated on each site's Engines", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-sites-'));
  const r = await runCli([
    'run',
    'pipelines/three-site-release.yml',
    '--emulator',
    '--report-json',
    join(dir, 'r.json'),
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    steps: { id: string | null; server: string | null; outcome: string; outputs: Record<string, unknown> }[];
  };
  for (const id of ['clear', 'vfs', 'engines']) {
    assert.deepEqual(
      report.steps.filter((s) => s.id === id).map((s) => [s.server, s.outcome]),
      [
        ['test', 'success'],
        ['staging', 'success'],
        ['prod', 'success'],
      ],
      id,
    );
  }
  assert.deepEqual(
    report.steps.filter((s) => s.id === 'engines').map((s) => s.outputs.missing),
    [[], [], []],
  );
  const matrix = await runCli(['matrix', 'pipelines/three-site-release.yml', '--step', 'engines', '--emulator']);
  assert.equal(matrix.code, 0, matrix.stderr);
  assert.deepEqual(JSON.parse(matrix.stdout), { include: [{ site: 'test' }, { site: 'staging' }, { site: 'prod' }] });
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-include-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('problems inside an included inventory are located in that file, its line shown', async () => {
  const dir = workspace({
    'p.yml':
      'version: 1\ninclude: [inv/prod.yml]\nsteps:\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
    'inv/prod.yml': 'targets:\n  prod:\n    server: prod-db.example.com\n    database: PROD\n    tokn: x\n',
  });
  const r = await runCli(['validate', join(dir, 'p.yml')]);
  assert.equal(r.code, 2);
  // Named as the pipeline is (here by its absolute path): the path an annotation attaches to.
  assert.match(
    r.stderr,
    new RegExp(`^${escape(join(dir, 'inv', 'prod.yml'))}:5:5 unknown key "tokn"[^\\n]*\\n {2}5 \\| {5}tokn: x\\n`, 'm'),
  );
  assert.match(r.stderr, /hint: did you mean "token"\?/);
  const credentials = workspace({
    'p.yml':
      'version: 1\ninclude: [inv/prod.yml]\nsteps:\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
    'inv/prod.yml': 'targets:\n  prod: { server: prod-db.example.com, database: PROD }\n',
  });
  const missing = await runCli(['validate', join(credentials, 'p.yml')]);
  assert.match(
    missing.stderr,
    new RegExp(
      `^${escape(join(credentials, 'inv', 'prod.yml'))}:2:9 target needs a token, or both a username and a password`,
      'm',
    ),
  );
});

test('a name defined twice (the pipeline and an inventory, or two inventories) names both places; a missing inventory is located at include:', async () => {
  const dir = workspace({
    'p.yml':
      'version: 1\ninclude: [a.yml, b.yml, gone.yml]\ntargets:\n  prod: { server: p, database: PROD, token: t }\nsteps:\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
    'a.yml': 'targets:\n  prod: { server: p, database: PROD, token: t }\nvars:\n  files: [1]\n',
    'b.yml': 'vars:\n  files: [2]\n',
  });
  const r = await runCli(['validate', join(dir, 'p.yml')]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      `${join(dir, 'p.yml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:25 include gone\\.yml: cannot read it \\(no such file\\)`,
    ),
  );
  assert.match(
    r.stderr,
    new RegExp(
      `^${escape(join(dir, 'a.yml'))}:2:3 target "prod" is defined twice: here and at ${escape(join(dir, 'p.yml'))}:4:3`,
      'm',
    ),
  );
  assert.match(
    r.stderr,
    new RegExp(
      `^${escape(join(dir, 'b.yml'))}:2:3 var "files" is defined twice: here and at ${escape(join(dir, 'a.yml'))}:4:3`,
      'm',
    ),
  );
});

test('an inventory included twice is told once, at its second include, naming both; not as each of its names defined twice, here and at itself', async () => {
  const dir = workspace({
    'p.yml':
      'version: 1\ninclude:\n  - inv/sites.yml\n  - ./inv/sites.yml\nsteps:\n  - uses: assert\n    with: { that: 1 < 2 }\n',
    'inv/sites.yml': 'servers:\n  prod: { url: "https://prod.example.com" }\nvars:\n  files: [1]\n',
  });
  const p = join(dir, 'p.yml');
  const r = await runCli(['validate', p]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `^${escape(p)}:4:5 include \\./inv/sites\\.yml: ${escape(join(dir, 'inv', 'sites.yml'))} is included twice, at ${escape(p)}:3:5 and at ${escape(p)}:4:5\n`,
    ),
  );
  assert.match(r.stderr, /\n {2}hint: include each inventory once\n1 problem\(s\) in /);
  assert.doesNotMatch(r.stderr, /defined twice/);
  // The same name twice in a flow list, as well.
  const flow = workspace({
    'p.yml': 'version: 1\ninclude: [inv.yml, inv.yml]\nsteps:\n  - uses: assert\n    with: { that: 1 < 2 }\n',
    'inv.yml': 'vars:\n  files: [1]\n',
  });
  const again = await runCli(['validate', join(flow, 'p.yml')]);
  assert.equal(again.code, 2, again.stderr);
  assert.match(again.stderr, /:2:20 include inv\.yml: \S+ is included twice, at \S+:2:11 and at \S+:2:20\n/);
  assert.doesNotMatch(again.stderr, /defined twice/);
});

test('an empty inventory (comments only, or nothing) defines nothing: the pipeline validates, no internal error', async () => {
  for (const text of ['', '# the sites go here\n']) {
    const dir = workspace({
      'p.yml': 'version: 1\ninclude: [inv.yml]\nsteps:\n  - uses: assert\n    with: { that: 1 < 2 }\n',
      'inv.yml': text,
    });
    const r = await runCli(['validate', join(dir, 'p.yml')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /valid \(1 step\)/);
  }
});

test('a missing inventory is told once: the findings that follow from what it would define (its vars, servers, targets) are not listed', async () => {
  const release = readFileSync('pipelines/three-site-release.yml', 'utf8').replace(
    'include: [inventory/sites.yml]',
    'include: [inventory/site.yml]',
  );
  const dir = workspace({
    'release.yml': release,
    'inventory/sites.yml': readFileSync('pipelines/inventory/sites.yml', 'utf8'),
  });
  const r = await runCli(['validate', join(dir, 'release.yml')]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `^${escape(join(dir, 'release.yml'))}:10:11 include inventory/site\\.yml: cannot read it \\(no such file\\)\\n`,
      'm',
    ),
  );
  assert.match(
    r.stderr,
    /hint: paths are relative to the pipeline file; the checks that need what it defines \(vars, servers, targets\) wait until it is read/,
  );
  assert.match(r.stderr, /^1 problem\(s\) in /m);
  assert.doesNotMatch(r.stderr, /unknown var|names no server|unknown target/);
  // A mistake of the pipeline's own that no include decides is still told beside it.
  const both = workspace({ 'release.yml': release.replace('uses: assert', 'uses: asert') });
  const b = await runCli(['validate', join(both, 'release.yml')]);
  assert.match(b.stderr, /unknown step type "asert"/);
  assert.match(b.stderr, /^2 problem\(s\) in /m);
});

test('the committed schema/inventory.schema.json is what `enginectl schema --inventory` prints', async () => {
  const r = await runCli(['schema', '--inventory']);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    readFileSync('schema/inventory.schema.json', 'utf8'),
    'run `npm run schema` and commit schema/',
  );
  const pipeline = JSON.parse(readFileSync('schema/pipeline.schema.json', 'utf8')) as {
    properties: Record<string, unknown>;
  };
  assert.ok(pipeline.properties.include, 'the pipeline schema knows include:');
});
