// plan --live reads the entity a classes/update would change and shows its fields as they are now
// and as the write would leave them. A server may hold a secret JSON-escaped (`s3cret\/pass`), which
// the masker finds as a form of the secret in any text. Before, the preview quoted the server's
// value as JSON before it was masked: its backslash doubled (`s3cret\\/pass`), no form of the secret
// any more, and the terminal, the saved plan (its text and observed values) and the summary showed it.
// The field is one the write changes with a readable value: a field written with a secret, or named
// as a credential (ipassword), is not shown at all (entity-old-credentials.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sampleState } from '../../src/emulator/sample-state.ts';
import { runCli } from '../helpers/cli.ts';

for (const held of ['s3cret\\/pass', 's3cret\\u002fpass'])
  test(`plan --live masks a secret the server holds JSON-escaped (${held}) in the entity a write would change: terminal, saved plan, summary`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-live-escaped-'));
    const state = sampleState(Date.now());
    const entity = state.entities.find((e) => e.ikey === 2001)!;
    entity.iemailaddress = held;
    writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
    const file = join(dir, 'leak.yml');
    writeFileSync(
      file,
      `version: 1
steps:
  - uses: classes/update
    with: { id: 2001, fields: { iemailaddress: new.mailbox@example.org, ipassword: "\${{ secrets.APP_SECRET }}" } }
`,
    );
    const out = join(dir, 'leak.plan');
    const summary = join(dir, 'leak.md');
    const r = await runCli(
      ['plan', file, '--live', '--emulator', '--state', join(dir, 'state.json'), '--out', out, '--summary', summary],
      { env: { APP_SECRET: 's3cret/pass' } },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /iemailaddress "\*\*\*" -> "new\.mailbox@example\.org"/,
      'the preview shows the field, masked',
    );
    for (const [where, text] of [
      ['terminal', r.stdout + r.stderr],
      ['saved plan', readFileSync(out, 'utf8')],
      ['summary', readFileSync(summary, 'utf8')],
    ] as const)
      assert.doesNotMatch(text, /s3cret/, `${where} holds the secret`);
  });
