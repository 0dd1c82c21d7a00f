// run --webhook URL: the JSON report POSTed as the run ends (the document --report-json writes),
// a failure a warning that leaves the exit code as it was, and the URL a secret: its token in no
// output, report or annotation, in any encoding.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { closedPort, startEmulator } from '../helpers/emulator.ts';

const TOKEN = 'wh-T0ken/s3cret+value=';
const PIPELINE = `version: 1
name: nightly
steps:
  - id: clear
    name: Clear the log
    uses: transaction-log/clear
`;

interface Received {
  method: string;
  url: string;
  type: string | undefined;
  authorization: string | undefined;
  body: string;
}

async function hook(t: TestContext, status: number) {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        type: req.headers['content-type'],
        authorization: req.headers.authorization,
        body,
      });
      res.writeHead(status).end(status === 200 ? 'ok' : `failed, token ${TOKEN}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/enginectl?token=${encodeURIComponent(TOKEN)}`, received };
}

async function run(t: TestContext, webhook: string | undefined, env: Record<string, string> = {}) {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-webhook-'));
  const file = join(dir, 'nightly.yml');
  writeFileSync(file, PIPELINE);
  const reports = ['--report-json', join(dir, 'r.json'), '--summary', join(dir, 'r.md'), '--html', join(dir, 'r.html')];
  const r = await runCli(['run', file, ...reports, ...(webhook === undefined ? [] : ['--webhook', webhook])], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...env },
  });
  return { ...r, dir };
}

/** The token in no output and no file the run wrote, as written, URL-encoded or in base64. */
function assertNoToken(r: { stdout: string; stderr: string; dir: string }, webhook: string) {
  const forms = [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64'), webhook];
  const texts = {
    stdout: r.stdout,
    stderr: r.stderr,
    ...Object.fromEntries(
      readdirSync(r.dir)
        .filter((f) => f.startsWith('r.'))
        .map((f) => [f, readFileSync(join(r.dir, f), 'utf8')]),
    ),
  };
  for (const [where, text] of Object.entries(texts))
    for (const form of forms) assert.ok(!text.includes(form), `${where} holds the webhook's token (${form})`);
}

test('run --webhook: the JSON report POSTed as application/json, the same document --report-json writes', async (t) => {
  const server = await hook(t, 200);
  const r = await run(t, server.url);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(server.received.length, 1);
  const [got] = server.received;
  assert.equal(got!.method, 'POST');
  assert.equal(got!.type, 'application/json');
  assert.equal(got!.url, `/hooks/enginectl?token=${encodeURIComponent(TOKEN)}`);
  assert.equal(got!.body, readFileSync(join(r.dir, 'r.json'), 'utf8'));
  assert.equal((JSON.parse(got!.body) as { outcome: string }).outcome, 'success');
  assert.match(r.stdout, /^webhook: the report was posted \(200\)$/m);
  assertNoToken(r, server.url);
});

test('run --webhook: a server answering 500, or refusing, is a warning without the URL; the exit code is as without the webhook', async (t) => {
  const without = await run(t, undefined);
  assert.equal(without.code, 0, without.stderr);
  const failing = await hook(t, 500);
  const refused = `http://127.0.0.1:${await closedPort()}/hooks?token=${encodeURIComponent(TOKEN)}`;
  for (const [webhook, why] of [
    [failing.url, /webhook: publishing failed: the report could not be posted: the server answered 500/],
    [refused, /webhook: publishing failed: the report could not be posted \(ECONNREFUSED\)/],
  ] as const) {
    const r = await run(t, webhook);
    assert.equal(r.code, without.code, `${r.stdout}\n${r.stderr}`);
    assert.match(`${r.stdout}${r.stderr}`, why);
    assert.equal((JSON.parse(readFileSync(join(r.dir, 'r.json'), 'utf8')) as { outcome: string }).outcome, 'success');
    assertNoToken(r, webhook);
  }
  assert.equal(failing.received.length, 1);
});

test('run --webhook under Azure Pipelines: the warning is an annotation without the token; a URL that is none is exit 2, unnamed', async (t) => {
  const failing = await hook(t, 500);
  const r = await run(t, failing.url, { TF_BUILD: 'True' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /##vso\[task\.logissue type=warning;\]webhook: publishing failed/);
  assertNoToken(
    // Azure's own masking is told the secret (task.setsecret): that line is the one place it is written.
    { ...r, stdout: r.stdout.replace(/^##vso\[task\.setsecret\].*$/gm, '') },
    failing.url,
  );
  const bad = await run(t, `ftp://example.com/${TOKEN}`);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--webhook: ftp: is not http:\/\/ or https:\/\//);
  assert.ok(!bad.stderr.includes(TOKEN));
});

test('report --merge --webhook: the fleet report POSTed, the same document as its --report-json; a 500 a warning', async (t) => {
  const first = await run(t, undefined);
  assert.equal(first.code, 0, first.stderr);
  for (const status of [200, 500]) {
    const server = await hook(t, status);
    const merged = join(first.dir, `fleet-${status}.json`);
    const r = await runCli([
      'report',
      '--merge',
      join(first.dir, 'r.json'),
      '--report-json',
      merged,
      '--webhook',
      server.url,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.received.length, 1);
    assert.equal(server.received[0]!.type, 'application/json');
    assert.equal(server.received[0]!.body, readFileSync(merged, 'utf8'));
    if (status === 500) assert.match(r.stderr, /warning: webhook: publishing failed: .*answered 500/);
    for (const form of [TOKEN, encodeURIComponent(TOKEN), server.url])
      assert.ok(!`${r.stdout}${r.stderr}${readFileSync(merged, 'utf8')}`.includes(form));
  }
});

test('run --webhook with its token in the path (as Slack and Teams give them): the token masked, the words of the path not', async (t) => {
  const server = await hook(t, 200);
  const base = new URL(server.url);
  const token = 'xKq7Zt3bWm9Lp2Rv5Hs8Nd4F';
  const webhook = `${base.origin}/services/T0A1B2C3D/B0A1B2C3D/${token}`;
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-webhook-'));
  const file = join(dir, 'nightly.yml');
  writeFileSync(file, PIPELINE.replace('Clear the log', 'Clear the log of services'));
  const r = await runCli(['run', file, '--report-json', join(dir, 'r.json'), '--webhook', webhook], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(server.received[0]!.url, `/services/T0A1B2C3D/B0A1B2C3D/${token}`);
  const out = `${r.stdout}${r.stderr}${readFileSync(join(dir, 'r.json'), 'utf8')}`;
  for (const secret of [token, 'T0A1B2C3D', 'B0A1B2C3D']) assert.ok(!out.includes(secret), `${secret} is shown`);
  assert.match(r.stdout, /Clear the log of services/, 'a word of the path that is no token is not masked');
});

test('run --webhook with a user and password in the URL: sent as Basic authorization, never shown; a malformed %-escape in the URL is invalid input (exit 2), not an internal error', async (t) => {
  const server = await hook(t, 200);
  const base = new URL(server.url);
  const password = 'HookP@ss w0rd:1';
  const webhook = `http://hook-user:${encodeURIComponent(password)}@${base.host}/hooks/x`;
  const r = await run(t, webhook);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(server.received[0]!.url, '/hooks/x');
  assert.equal(
    server.received[0]!.authorization,
    `Basic ${Buffer.from(`hook-user:${password}`).toString('base64')}`,
    "the URL's credentials are sent",
  );
  for (const form of [password, encodeURIComponent(password), Buffer.from(`hook-user:${password}`).toString('base64')])
    assert.ok(
      !`${r.stdout}${r.stderr}${readFileSync(join(r.dir, 'r.json'), 'utf8')}`.includes(form),
      `${form} is shown`,
    );
  for (const bad of [`http://u:p%ZZassword123@${base.host}/x`, `http://${base.host}/hooks/%E0%A4%Asecret-token-1`]) {
    const refused = await run(t, bad);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /--webhook: .*%-escape/);
    assert.doesNotMatch(refused.stderr, /internal error|p%ZZassword123|secret-token-1/);
  }
  assert.equal(server.received.length, 1, 'nothing posted for a URL refused');
});

test('run --webhook that never answers follows the signal: SIGTERM while it is posted cuts it at once (not at its 10 s limit), saying so; the report files are written before it', async (t) => {
  let arrived: () => void = () => undefined;
  const posted = new Promise<void>((resolve) => (arrived = resolve));
  // Reads the report and never answers.
  const server = createServer((req) => req.on('data', () => arrived()).resume());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => (server.closeAllConnections(), server.close()));
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-webhook-hang-'));
  const file = join(dir, 'nightly.yml');
  writeFileSync(file, PIPELINE);
  const stop = new AbortController();
  void posted.then(() => stop.abort(new Error('received SIGTERM')));
  const r = await runCli(
    [
      'run',
      file,
      '--report-json',
      join(dir, 'r.json'),
      '--webhook',
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ],
    { env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' }, signal: stop.signal },
  );
  assert.match(`${r.stdout}${r.stderr}`, /webhook: publishing failed: the report could not be posted \(interrupted\)/);
  assert.equal((JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { outcome: string }).outcome, 'success');
});

test('run --webhook of a run interrupted mid-step: the cancelled run is still posted, its report saying so', async (t) => {
  const received = await hook(t, 200);
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', hang: true });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-webhook-cancelled-'));
  const file = join(dir, 'nightly.yml');
  writeFileSync(file, PIPELINE);
  const stop = new AbortController();
  const interrupted = (async () => {
    while (!emulator.requests.some((r) => r.path.endsWith('/transaction-log/clear')))
      await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort(new Error('received SIGTERM'));
  })();
  const r = await runCli(['run', file, '--webhook', received.url], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    signal: stop.signal,
  });
  await interrupted;
  assert.match(r.stdout, /webhook: the report was posted \(200\)/, r.stdout + r.stderr);
  assert.equal(received.received.length, 1);
  assert.equal((JSON.parse(received.received[0]!.body) as { outcome: string }).outcome, 'cancelled');
});
