// A server that says ISO-8859-1 (which TextDecoder reads as Windows-1252) and echoes the password
// as it was sent, in UTF-8, in a chunked answer (no Content-Length): read in pieces, the answer is
// decoded as Windows-1252 is (`GrÃ¼ÃŸe` for `Grüße`), a form the masker is said to know
// (reliability.md). On Node 20 a one-shot TextDecoder('windows-1252') decodes as Latin-1 instead
// (`Ã\x9F`, not `Ÿ`), so the form secret-forms.ts makes is the Latin-1 one twice, and the streamed
// answer shows the password but its non-ASCII characters. Read as UTF-8 before, it was masked.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'Grüße-Deploy-7731-Kq';
const TAIL = 'e-Deploy-7731-Kq';

test('a chunked UTF-8 echo of the password under charset=ISO-8859-1 shows no part of it', async (t) => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'text/plain; charset=ISO-8859-1' });
      res.write(Buffer.from('login refused: the password ', 'utf8'));
      res.end(Buffer.from(`${PASSWORD} is not valid for this realm`, 'utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-1252-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(
    at('p.yml'),
    `version: 1
name: Windows-1252 echo
steps:
  - id: read
    uses: api/request
    with: { path: /api/monitoring/v1/alerts }
`,
  );
  const r = await runCli(['run', at('p.yml'), '--report-json', at('r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: PASSWORD },
  });
  assert.equal(r.code, 1, r.output);
  assert.match(r.output, /login refused/, r.output);
  for (const [channel, text] of [
    ['the log', r.output],
    ['the JSON report', readFileSync(at('r.json'), 'utf8')],
  ] as const)
    assert.ok(
      !text.includes(TAIL),
      `${channel} shows the password but its non-ASCII characters: ${text.slice(Math.max(0, text.indexOf(TAIL) - 40), text.indexOf(TAIL) + 40)}`,
    );
});
