// Every answer is read as UTF-8, whatever charset its Content-Type names: a server that names a
// charset its bytes are not in (UTF-8 bytes said to be ISO-8859-1) has the password it echoes
// masked as it wrote it. (Read in the charset named, it showed as `GrÃ¼ÃŸe-…`, and any charset a
// server names would need its own forms of every secret: test/security/charset-named-not-its-bytes.test.ts.)
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'Grüße-Deploy-7731-Kq';

/** A server answering every request 400 with `text`'s bytes in `written`, its Content-Type naming `named`. */
async function answering(t: TestContext, text: string, written: BufferEncoding, named: string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = Buffer.from(text, written);
      res.writeHead(400, { 'content-type': `text/plain; charset=${named}`, 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function run(t: TestContext, url: string) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-charset-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'p.yml'),
    'version: 1\nname: charset\nsteps:\n  - { id: read, uses: api/request, with: { path: /api/monitoring/v1/alerts } }\n',
  );
  const r = await runCli(['run', join(dir, 'p.yml'), '--report-json', join(dir, 'r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: PASSWORD },
  });
  assert.equal(r.code, 1, r.output);
  return { output: r.output, report: readFileSync(join(dir, 'r.json'), 'utf8') };
}

test('a password echoed in UTF-8 by a server naming ISO-8859-1 is masked as it reads there', async (t) => {
  const url = await answering(t, `login refused: the password ${PASSWORD} is not valid`, 'utf8', 'ISO-8859-1');
  const { output, report } = await run(t, url);
  assert.match(output, /login refused/, output);
  for (const [channel, text] of [
    ['the log', output],
    ['the JSON report', report],
  ] as const)
    assert.ok(!text.includes('-Deploy-7731-Kq'), `${channel} shows the password read as Latin-1:\n${text}`);
});
