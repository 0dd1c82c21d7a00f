// The action's webhook input: the JSON report (the report output's document) POSTed as the run
// ends; a failing server is a warning and the outcome stands; the URL is a secret, its token in
// no log line (but the runner's own add-mask), output, summary or report file.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { test, type TestContext } from 'node:test';
import { runActionBundle } from '../helpers/action.ts';
import { startEmulator } from '../helpers/emulator.ts';

const TOKEN = 'wh-T0ken/s3cret+value=';
const PIPELINE = `version: 1
name: Release
steps:
  - id: clear
    uses: transaction-log/clear
`;

async function hook(t: TestContext, status: number) {
  const received: { type: string | undefined; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ type: req.headers['content-type'], body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook?token=${encodeURIComponent(TOKEN)}`, received };
}

test('webhook input: the JSON report POSTed; a 500 is a warning, the outcome stands; the token in no output', async (t) => {
  const { url } = await startEmulator(t);
  for (const status of [200, 500]) {
    const server = await hook(t, status);
    const run = await runActionBundle(t, {
      action: '.',
      files: { 'release.yml': PIPELINE },
      inputs: { pipeline: 'release.yml', url, username: 'admin', password: 'admin', webhook: server.url },
    });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.outputs.outcome, 'success');
    assert.equal(server.received.length, 1);
    assert.equal(server.received[0]!.type, 'application/json');
    assert.equal(server.received[0]!.body, readFileSync(run.outputs.report!, 'utf8'));
    if (status === 500)
      assert.match(run.stdout, /^::warning title=enginectl::webhook: publishing failed: .*answered 500$/m);
    const log = run.stdout.replace(/^::add-mask::.*$/gm, '');
    for (const form of [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64')]) {
      for (const [where, text] of [
        ['log', `${log}${run.stderr}`],
        ['outputs', JSON.stringify(run.outputs)],
        ['summary', run.summary],
        ...run.files().map((f) => [f, readFileSync(f, 'utf8')]),
      ])
        assert.ok(!text!.includes(form), `${where} holds the webhook's token (${form})`);
    }
  }
});
