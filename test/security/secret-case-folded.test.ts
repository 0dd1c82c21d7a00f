// A server that echoes a target token in another case (an error body that upper-cases what it
// quotes, as many gateways' and databases' messages do): for a token of hex digits, as API tokens
// often are, and which servers compare without regard to case, the upper-cased echo is the token
// itself. The masker masks its hex encoding in any case, but not the secret's own text in another
// case: it reaches the terminal, the JSON report, the summary and the JUnit file as the server wrote it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const TOKEN = '9f3ab27c4d1e8a06b5c2f7d9e4a1b3c8';

test("a target token the server echoes upper-cased is masked in every channel, as the token's own hex encoding in any case is", async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/transaction-log/clear',
    status: 500,
    body: JSON.stringify({ message: `TOKEN ${TOKEN.toUpperCase()} IS NOT ALLOWED TO CLEAR THE LOG` }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-case-'));
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1\nname: p\ntargets:\n  prod: { server: '${url}', database: PROD, token: '\${{ secrets.PROD_TOKEN }}' }\nsteps:\n  - { id: clear, uses: transaction-log/clear }\n`,
  );
  const files = ['r.json', 's.md', 'j.xml'].map((f) => join(dir, f)) as [string, string, string];
  const r = await runCli(
    ['run', join(dir, 'p.yml'), '--report-json', files[0], '--summary', files[1], '--junit', files[2]],
    {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: TOKEN },
    },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /IS NOT ALLOWED TO CLEAR THE LOG/, "the server's message is shown");
  const channels: Record<string, string> = {
    stdout: r.stdout,
    stderr: r.stderr,
    ...Object.fromEntries(files.map((f) => [f.slice(dir.length + 1), readFileSync(f, 'utf8')])),
  };
  for (const [channel, text] of Object.entries(channels))
    assert.ok(!text.toLowerCase().includes(TOKEN), `${channel} holds the token, upper-cased:\n${text}`);
});
