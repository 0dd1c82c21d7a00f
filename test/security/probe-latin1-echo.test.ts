// A server that answers in ISO-8859-1 (a Java servlet's default charset) and says so in its
// Content-Type, echoing the password it was sent: the answer's text is the password, which the
// masker knows, so no part of it may reach the log or a report. The client decodes every body as
// UTF-8 whatever charset the answer names, so each non-ASCII character of the password becomes
// U+FFFD, the text no longer equals the secret, and the rest of the password is shown.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'Grüße-Deploy-7731-Kq';
/** What of the password is still the password once its two non-ASCII characters are lost. */
const TAIL = 'e-Deploy-7731-Kq';

const PIPELINE = `version: 1
name: Latin-1 echo
steps:
  - id: read
    uses: api/request
    with: { path: /api/monitoring/v1/alerts }
`;

test('a server answering in ISO-8859-1 (named in its Content-Type) that echoes the password shows no part of it in the log or the reports', async (t) => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = Buffer.from(`login refused: the password ${PASSWORD} is not valid for this realm`, 'latin1');
      res.writeHead(400, { 'content-type': 'text/plain; charset=ISO-8859-1', 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-latin1-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), PIPELINE);
  writeFileSync(at('step-summary.md'), '');
  const r = await runCli(
    ['run', at('p.yml'), '--report-json', at('r.json'), '--summary', at('r.md'), '--junit', at('r.xml')],
    {
      env: {
        ENGINE_URL: url,
        ENGINE_USERNAME: 'deployer',
        ENGINE_PASSWORD: PASSWORD,
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: at('step-summary.md'),
      },
    },
  );
  assert.equal(r.code, 1, r.output);
  // The server's answer reached the run: the step failed on it.
  assert.match(r.output, /login refused/, r.output);
  for (const [channel, text] of [
    ['the log', r.output.replace(/^::add-mask::.*$/gm, '')],
    ['the JSON report', readFileSync(at('r.json'), 'utf8')],
    ['the summary', readFileSync(at('r.md'), 'utf8')],
    ['the job summary', readFileSync(at('step-summary.md'), 'utf8')],
    ['the JUnit report', readFileSync(at('r.xml'), 'utf8')],
  ] as const)
    assert.ok(
      !text.includes(TAIL),
      `${channel} shows the password but its non-ASCII characters: ${text.slice(Math.max(0, text.indexOf(TAIL) - 80), text.indexOf(TAIL) + 40)}`,
    );
});
