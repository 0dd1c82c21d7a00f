// A password past ASCII that a server echoes in another Unicode normal form (NFD: `u` and a
// combining diaeresis for `ü`, as macOS file names and some Java and LDAP layers write it): the
// same password to a reader, other code units to a search. It reached the log and the report.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PASSWORD = 'Grüße-Deploy-7731-Kq'.normalize('NFC');

for (const [given, echoed] of [
  ['NFC', 'NFD'],
  ['NFD', 'NFC'],
] as const)
  test(`a password given in ${given} and echoed by the server in ${echoed} is masked`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    emulator.faults.add({
      method: 'POST',
      path: '/api/devops/v1/transaction-log/clear',
      status: 500,
      body: JSON.stringify({ message: `password ${PASSWORD.normalize(echoed)} refused by the directory` }),
    });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-nfd-'));
    writeFileSync(join(dir, 'p.yml'), 'version: 1\nname: p\nsteps:\n  - { id: clear, uses: transaction-log/clear }\n');
    const report = join(dir, 'r.json');
    const r = await runCli(['run', join(dir, 'p.yml'), '--report-json', report], {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: PASSWORD.normalize(given) },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /refused by the directory/, "the server's message is shown");
    for (const [channel, text] of [
      ['the log', r.stdout + r.stderr],
      ['the JSON report', readFileSync(report, 'utf8')],
    ] as const)
      assert.ok(!text.includes('-Deploy-7731-Kq'), `${channel} shows the password in another normal form:\n${text}`);
  });
