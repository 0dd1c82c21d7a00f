// A pipeline that includes another whole pipeline file (its version, name, steps) is told so, once,
// at that include: it was read as an inventory and refused for each of its top-level keys
// ("unknown key "version" in the inventory", then name, then steps), in the other file, none of them
// saying that an include takes an inventory, not a pipeline. What the other file defines is not
// merged, so the findings that would follow from it (a target only it defines) wait. Exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('validate and run: including a whole pipeline file is one error at that include, saying what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-pipeline-include-'));
  writeFileSync(join(dir, 'sites.yml'), 'vars: { region: eu }\n');
  writeFileSync(
    join(dir, 'other.yml'),
    `version: 1
name: Other
targets:
  t2: { server: s, database: D, token: x }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: t2, files: [1] }
`,
  );
  const file = join(dir, 'main.yml');
  writeFileSync(
    file,
    `version: 1
name: Main
include: [sites.yml, other.yml]
steps:
  - id: a
    uses: update/vfs
    with: { target: t2, files: [1] }
`,
  );
  for (const args of [
    ['validate', file],
    ['run', file, '--dry-run'],
  ]) {
    const r = await runCli(args);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /unknown key/, args[0]);
    assert.match(
      r.stderr,
      new RegExp(
        `^(enginectl: )?${escape(file)}:3:22 include other\\.yml: .* is a whole pipeline \\(version, name, steps\\), not an inventory`,
        'm',
      ),
      `${args[0]}: ${r.stderr}`,
    );
    assert.match(
      r.stderr,
      /hint: include: names inventory files \(servers, targets, vars, windows, freezes\) merged into this pipeline: .* and run other\.yml as a pipeline of its own; what it defines is not merged, so the checks that need it wait\n/,
    );
    assert.match(r.stderr, /^1 problem\(s\) in /m, `${args[0]}: ${r.stderr}`);
  }
});

test('an inventory with a stray key is still told that key, not called a pipeline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-pipeline-include-'));
  writeFileSync(join(dir, 'sites.yml'), 'vars: { region: eu }\nname: sites\n');
  const file = join(dir, 'main.yml');
  writeFileSync(file, `version: 1\ninclude: [sites.yml]\nsteps:\n  - uses: assert\n    with: { that: "true" }\n`);
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /sites\.yml:2:1 unknown key "name" in the inventory/);
  assert.doesNotMatch(r.stderr, /whole pipeline/);
});
