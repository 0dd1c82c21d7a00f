// A token written as a UUID (hex groups joined by dashes, as many API tokens are) that the server
// echoes in the other case (an error body upper-casing what it quotes). A secret of hex digits
// alone is masked in any case; a UUID's dashes made it no hex form, so its upper-cased echo reached
// the terminal and every report.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const TOKEN = '9f3ab27c-4d1e-8a06-b5c2-f7d9e4a1b3c8';

for (const [form, echo] of [
  ['upper-cased', TOKEN.toUpperCase()],
  ['lower-cased, given upper-cased', TOKEN],
] as const)
  test(`a UUID target token the server echoes ${form} is masked in every channel`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    emulator.faults.add({
      method: 'POST',
      path: '/api/devops/v1/transaction-log/clear',
      status: 500,
      body: JSON.stringify({ message: `TOKEN ${echo} IS NOT ALLOWED TO CLEAR THE LOG` }),
    });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-uuid-'));
    writeFileSync(
      join(dir, 'p.yml'),
      `version: 1\nname: p\ntargets:\n  prod: { server: '${url}', database: PROD, token: '\${{ secrets.PROD_TOKEN }}' }\nsteps:\n  - { id: clear, uses: transaction-log/clear }\n`,
    );
    const files = ['r.json', 's.md', 'j.xml'].map((f) => join(dir, f));
    const given = echo === TOKEN ? TOKEN.toUpperCase() : TOKEN;
    const r = await runCli(
      ['run', join(dir, 'p.yml'), '--report-json', files[0]!, '--summary', files[1]!, '--junit', files[2]!],
      { env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: given } },
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /IS NOT ALLOWED TO CLEAR THE LOG/, "the server's message is shown");
    const channels: Record<string, string> = {
      stdout: r.stdout,
      stderr: r.stderr,
      ...Object.fromEntries(files.map((f) => [f.slice(dir.length + 1), readFileSync(f, 'utf8')])),
    };
    for (const [channel, text] of Object.entries(channels))
      assert.ok(!text.toLowerCase().includes(TOKEN), `${channel} holds the token, in another case:\n${text}`);
  });
