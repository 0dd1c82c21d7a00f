// A server that writes its answers in a single-byte charset (a Central European Windows server's
// windows-1250) echoing the password: every answer is read as UTF-8, and the masker knows the
// password past ASCII as so read with each such character U+FFFD (runner/secret-forms.ts
// misdecoded). A UTF-8 decoder does not read a byte at a time: two such bytes that begin a
// multi-byte sequence are one U+FFFD (`ół`, F3 B3 in windows-1250, a lead and a continuation
// byte), and two that make a whole one are a character (`ÓŁ`, D3 A3, reads as `ӣ`). `Spółka` (a
// company, in Polish) then reads as `Sp�ka`, and the password shows but those two characters.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
name: single-byte echo
steps:
  - id: read
    uses: api/request
    with: { path: /api/monitoring/v1/alerts }
`;

/** `text` as windows-1250 bytes (every character of it is one). */
function windows1250(text: string): Buffer {
  const decoder = new TextDecoder('windows-1250');
  const byteOf = new Map(Array.from({ length: 256 }, (_, b) => [decoder.decode(Uint8Array.of(b)), b] as const));
  return Buffer.from([...text].map((c) => byteOf.get(c)!));
}

/** Runs the pipeline against a server answering 400 with `body` in windows-1250, named so; its log and reports. */
async function echoed(t: TestContext, password: string, body: string) {
  const bytes = windows1250(body);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'text/plain; charset=windows-1250', 'content-length': bytes.length });
      res.end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-single-byte-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), PIPELINE);
  const r = await runCli(['run', at('p.yml'), '--report-json', at('r.json'), '--summary', at('r.md')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: password },
  });
  assert.equal(r.code, 1, r.output);
  return [
    ['the log', r.output],
    ['the JSON report', readFileSync(at('r.json'), 'utf8')],
    ['the summary', readFileSync(at('r.md'), 'utf8')],
  ] as const;
}

for (const password of ['Spółka-Deploy-7731-Kq', 'SPÓŁKA-Deploy-7731-Kq']) {
  test(`a windows-1250 echo of the password ${password} shows no part of it`, async (t) => {
    const tail = 'ka-Deploy-7731-Kq';
    const body = `login refused: the password ${password} is not valid for this realm`;
    for (const [channel, text] of await echoed(t, password, body))
      assert.ok(
        !text.toLowerCase().includes(tail.toLowerCase()),
        `${channel} shows the password but its non-ASCII characters: ${text.slice(Math.max(0, text.toLowerCase().indexOf(tail.toLowerCase()) - 30), text.toLowerCase().indexOf(tail.toLowerCase()) + 40)}`,
      );
  });
}

test('a windows-1250 echo of a password whose characters past ASCII stand apart is masked (the forms hold there)', async (t) => {
  const password = 'Zaż-ó-ł-ć-Deploy-7731-Kq';
  const body = `login refused: the password ${password} is not valid for this realm`;
  for (const [channel, text] of await echoed(t, password, body))
    assert.ok(!text.includes('-Deploy-7731-Kq'), `${channel}: ${text.slice(0, 300)}`);
});
