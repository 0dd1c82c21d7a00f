// A pipeline that names itself in `include:` is told so, once, at that include: it was read as an
// inventory and refused for each of its own keys ("unknown key "version" in the inventory", then
// include, then steps), at line 1 of the file, none of them saying what to change. Exit 2.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const STEPS = 'steps:\n  - uses: assert\n    with: { that: "true" }\n';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const written of ['y7.yml', './y7.yml', '../ci/y7.yml']) {
  test(`validate: a pipeline that includes itself (include: [${written}]) is one error at that include`, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'enginectl-self-include-')), 'ci');
    mkdirSync(dir);
    const file = join(dir, 'y7.yml');
    writeFileSync(file, `version: 1\ninclude: [inventory/sites.yml, ${written}]\n${STEPS}`);
    mkdirSync(join(dir, 'inventory'));
    writeFileSync(join(dir, 'inventory', 'sites.yml'), 'vars: { region: eu }\n');
    const r = await runCli(['validate', file]);
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /unknown key/);
    assert.match(
      r.stderr,
      new RegExp(
        `^${escape(file)}:2:32 include ${escape(written)}: that is this pipeline itself, not an inventory\\n`,
        'm',
      ),
    );
    assert.match(
      r.stderr,
      /hint: remove it from include:; an include names an inventory file \(servers, targets, vars, windows, freezes\) to merge into the pipeline/,
    );
    assert.match(r.stderr, /^1 problem\(s\) in /m);
  });
}
