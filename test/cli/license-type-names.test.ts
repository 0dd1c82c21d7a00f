// A licensing/create step's license type is one of api 2.4's five names or its code (C, P, U, S, X),
// and nothing else: a name that only an object's prototype has (constructor, toString, __proto__)
// is no code, and the pipeline is refused before anything is sent.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

function pipeline(type: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-')), 'p.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - uses: licensing/create
    with:
      licensee-id: ACME-001
      licensee-name: ACME Corp
      expiration: "2027-12-31"
      licenses: [{ product: 3, quantity: 10, type: "${type}" }]
`,
  );
  return file;
}

test('a license type named like a member of every object (constructor, toString, __proto__) is refused: exit 2, nothing sent', async () => {
  for (const type of ['constructor', 'toString', '__proto__']) {
    const r = await runCli(['run', pipeline(type), '--emulator']);
    assert.equal(r.code, 2, `${type}\n${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /licenses\[0\]\.type: must be one of connection, processor, nominalUser, simultaneousUser, custom or a code C, P, U, S, X/,
      type,
    );
  }
  const ok = await runCli(['run', pipeline('S'), '--emulator']);
  assert.equal(ok.code, 0, `${ok.stdout}${ok.stderr}`);
});
