// A server that names a charset in its Content-Type its bytes are not in: a Central European
// Windows server saying windows-1250 (or ISO-8859-2) whose message quotes the password as it was
// sent, in UTF-8; and one saying UTF-16 whose text is ASCII. Before answers were read in the
// charset they name, every body was read as UTF-8 and the echo was the password, masked. Now the
// body is read in the charset named, the password's bytes read as other characters (`GrĂĽĂźe` for
// `Grüße`, CJK for ASCII read as UTF-16), and the masker, which knows only its Latin-1 and
// Windows-1252 misreadings, shows it: its ASCII part as it is, the rest one re-encoding away.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
name: charset named, not its bytes
steps:
  - id: read
    uses: api/request
    with: { path: /api/monitoring/v1/alerts }
`;

/** Runs the pipeline against a server answering 400 with `bytes` under `contentType`; its log and reports. */
async function echoed(t: import('node:test').TestContext, password: string, contentType: string, bytes: Buffer) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': contentType, 'content-length': bytes.length });
      res.end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-charset-'));
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

test('a UTF-8 echo of a password past ASCII under a Content-Type naming windows-1250 shows no part of it', async (t) => {
  const password = 'Grüße-Deploy-7731-Kq';
  const tail = 'e-Deploy-7731-Kq';
  const body = Buffer.from(`login refused: the password ${password} is not valid for this realm`, 'utf8');
  for (const [channel, text] of await echoed(t, password, 'text/plain; charset=windows-1250', body))
    assert.ok(
      !text.includes(tail),
      `${channel} shows the password but its non-ASCII characters: ${text.slice(Math.max(0, text.indexOf(tail) - 40), text.indexOf(tail) + 40)}`,
    );
});

test('an ASCII echo of the password under a Content-Type naming UTF-16 does not show the password as UTF-16 text', async (t) => {
  const password = 'Deploy-7731-Kq-secret';
  const body = Buffer.from(`login refused: the password ${password} is not valid`, 'latin1');
  for (const [channel, text] of await echoed(t, password, 'text/plain; charset=utf-16le', body)) {
    // What a reader gets back from the shown text by writing it as UTF-16 again, at both offsets.
    const back = [
      Buffer.from(text, 'utf16le').toString('latin1'),
      Buffer.from(` ${text}`, 'utf16le').toString('latin1'),
    ];
    assert.ok(
      back.every((b) => !b.includes(password.slice(2, -2))),
      `${channel} shows the password as UTF-16 text, one re-encoding away: ${text.slice(0, 400)}`,
    );
  }
});
