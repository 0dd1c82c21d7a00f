// Hostile networks end in a clear error, on time: a proxy that closes the connection on CONNECT
// fails the call (undici 7 alone opened the tunnel again forever, deaf to SIGTERM), and a second
// signal exits at once whatever the process is doing; a FIFO where a file is expected never blocks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { ExitCode } from '../../src/errors.ts';
import { trapSignals } from '../../src/signals.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

/** A proxy that accepts each CONNECT and closes the connection at once. */
async function closingProxy(t: TestContext) {
  const proxy = createServer();
  let connects = 0;
  proxy.on('connect', (_req, socket) => {
    connects += 1;
    socket.destroy();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  t.after(() => {
    proxy.closeAllConnections();
    proxy.close();
  });
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, connects: () => connects };
}

test(
  'a proxy that closes the connection on CONNECT fails the call with API_PROXY: no endless reconnecting',
  { timeout: 60_000 },
  async (t) => {
    const proxy = await closingProxy(t);
    const env = {
      ENGINE_URL: 'https://erp.example.com',
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin-pass',
      HTTPS_PROXY: proxy.url,
    };
    const api = await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], { env });
    assert.equal(api.code, 1, api.stdout + api.stderr);
    assert.match(
      api.stderr,
      /the proxy closed the connection while opening the tunnel to https:\/\/erp\.example\.com \(CONNECT\)/,
    );
    assert.match(api.stderr, /hint: check the proxy \(HTTPS_PROXY, HTTP_PROXY\)/);
    assert.ok(proxy.connects() <= 4, `${proxy.connects()} CONNECTs: the first and at most the GET's retries`);

    // A run: the step fails with the same error, the run ends and its reports are written.
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-proxy-'));
    writeFileSync(join(dir, 'p.yml'), 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
    const before = proxy.connects();
    const run = await runCli(['run', join(dir, 'p.yml'), '--report-json', join(dir, 'r.json')], { env });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const step = (JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { steps: { error: { code: string } }[] })
      .steps[0]!;
    assert.equal(step.error.code, 'API_PROXY');
    assert.equal(proxy.connects() - before, 1, 'a POST is never sent again');
  },
);

test('a second SIGTERM or SIGINT exits at once with its code; the first only aborts the run', () => {
  const exits: [number, string][] = [];
  const signals = trapSignals((code, signal) => exits.push([code, signal]));
  try {
    process.emit('SIGTERM', 'SIGTERM');
    assert.equal(signals.signal.aborted, true);
    assert.deepEqual(exits, [], 'the first signal lets the run stop and write its reports');
    process.emit('SIGINT', 'SIGINT');
    assert.deepEqual(exits, [[ExitCode.interrupted, 'SIGINT']]);
    assert.equal(signals.exitCode(0), 0);
    assert.equal(signals.exitCode(1), ExitCode.terminated);
  } finally {
    signals.release();
  }
});

test(
  'a FIFO as --journal is refused at once (exit 2), before the first call: no open waits for a peer',
  { timeout: 60_000 },
  async (t) => {
    const { url, emulator } = await startEmulator(t);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-fifo-'));
    writeFileSync(join(dir, 'p.yml'), 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
    execFileSync('mkfifo', [join(dir, 'journal.fifo')]);
    const r = await runCli(['run', join(dir, 'p.yml'), '--journal', join(dir, 'journal.fifo')], {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /not a regular file \(a FIFO, a device or a directory\)/);
    assert.equal(emulator.requests.length, 0, 'nothing was sent');
  },
);
