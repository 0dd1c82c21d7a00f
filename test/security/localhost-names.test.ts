// A server named `localhost` or `*.localhost` is taken for this machine: its Basic credentials may
// go over plain http:// and never through HTTP_PROXY (insecure-http.ts, dispatcher.ts). So it must
// be this machine whatever DNS says. The system's lookup is asked (/etc/hosts may name another
// loopback address), but glibc asks DNS for any name /etc/hosts lacks, and a resolver that answers
// every name (NXDOMAIN rewriting) or a hostile one could send the credentials in clear to an
// address of its choice: only loopback answers are taken, and a name the system cannot resolve is
// the loopback address (RFC 6761 6.3). On this test's machines such a name does not resolve.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli, runCliProcess } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { BIN } from '../helpers/source-process.ts';

test('a server named *.localhost the system cannot resolve is reached on the loopback address', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const port = new URL(url).port;
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], {
    env: {
      ENGINE_URL: `http://enginectl-test-site.localhost:${port}`,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      // Loopback is never proxied: were the name sent to the proxy, the call would fail.
      HTTP_PROXY: 'http://127.0.0.1:9',
    },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(emulator.requests.length, 1, 'the call reached the server on 127.0.0.1');
});

// The system's lookup is asked first (/etc/hosts may give a *.localhost name another loopback
// address); only its loopback answers are taken. The CLI runs from the source in a mount
// namespace of its own where a private hosts file is bound over /etc/hosts: the machine's file is
// never touched. A mount namespace needs root: as root, through a password-less sudo (a CI
// runner's: Ubuntu 24.04 restricts unprivileged user namespaces), else a user namespace.
const BIND_HOSTS = ['sh', '-c', 'mount --bind "$0" /etc/hosts && exec "$@"'];
const HOSTS_RUN =
  process.getuid?.() === 0
    ? ['unshare', '-m', ...BIND_HOSTS]
    : spawnSync('sudo', ['-n', 'true']).status === 0
      ? ['sudo', '-n', '--preserve-env', 'unshare', '-m', ...BIND_HOSTS]
      : ['unshare', '-rm', ...BIND_HOSTS];

/** A server on `host`:`port` (0: a free one) that records each request it gets and answers `[]`. */
async function recorder(t: TestContext, host: string, port: number): Promise<{ port: number; got: string[] }> {
  const got: string[] = [];
  const server = createServer((req, res) => {
    got.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with credentials' : ''}`.trim());
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  t.after(() => (server.closeAllConnections(), server.close()));
  return { port: (server.address() as AddressInfo).port, got };
}

/** The CLI from the source, run where /etc/hosts reads `hosts`. */
async function withHosts(t: TestContext, hosts: string, args: string[], env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-hosts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'hosts'), hosts);
  return runCliProcess(args, {
    command: [...HOSTS_RUN, join(dir, 'hosts'), process.execPath, '--import', 'tsx', BIN],
    env,
  });
}

/**
 * Servers on 127.0.0.1 and 127.0.0.2 at one port: which of them a name reached. The port is
 * taken free on 127.0.0.1 first, where the suite's other servers listen (a port free on
 * 127.0.0.2 could be held there: EADDRINUSE); should 127.0.0.2 hold it, another port is tried.
 */
async function twoLoopbacks(t: TestContext) {
  for (let attempt = 1; ; attempt++) {
    const first = await recorder(t, '127.0.0.1', 0);
    try {
      const other = await recorder(t, '127.0.0.2', first.port);
      return { port: first.port, other: other.got, first: first.got };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 10) throw error;
    }
  }
}

const CREDENTIALS = { ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };

test('a *.localhost name /etc/hosts gives another loopback address is reached there, not on 127.0.0.1', async (t) => {
  const { port, other, first } = await twoLoopbacks(t);
  const r = await withHosts(t, '127.0.0.2 engine2.localhost\n', ['api', 'GET', '/api/monitoring/v1/alerts'], {
    ENGINE_URL: `http://engine2.localhost:${port}`,
    ...CREDENTIALS,
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(other, ['GET /api/monitoring/v1/alerts with credentials'], 'the call reached 127.0.0.2');
  assert.deepEqual(first, [], 'nothing reached 127.0.0.1');
});

test('a *.localhost name the system resolves off this machine is refused: nothing is sent', async (t) => {
  const { port, other, first } = await twoLoopbacks(t);
  const r = await withHosts(t, '192.0.2.7 engine2.localhost\n', ['api', 'GET', '/api/monitoring/v1/alerts'], {
    ENGINE_URL: `http://engine2.localhost:${port}`,
    ...CREDENTIALS,
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /engine2\.localhost resolves to 192\.0\.2\.7, off this machine: .*nothing was sent/);
  assert.match(r.stderr, /code: API_LOCALHOST_OFF_MACHINE/);
  assert.deepEqual([...other, ...first], [], 'nothing was sent');
});

// No lookup changes its answer between attempts: the name is refused at once, never retried as a
// DNS fault is (API_DNS_FAILURE is transient: a GET-only step asks again up to three times).
test('a GET-only step to a *.localhost name resolved off this machine fails at once, not retried', async (t) => {
  const { port, other, first } = await twoLoopbacks(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-hosts-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nname: p\nsteps:\n  - id: a\n    uses: monitoring/alerts\n');
  const report = join(dir, 'report.json');
  const r = await withHosts(t, '192.0.2.7 engine2.localhost\n', ['run', file, '--report-json', report], {
    ENGINE_URL: `http://engine2.localhost:${port}`,
    ...CREDENTIALS,
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /retry/i, 'no retry was logged');
  const json = JSON.parse(readFileSync(report, 'utf8')) as { steps: { error?: { code?: string } }[] };
  assert.equal(json.steps[0]?.error?.code, 'API_LOCALHOST_OFF_MACHINE');
  assert.deepEqual([...other, ...first], [], 'nothing was sent');
});

test('a write to a *.localhost name resolved off this machine is known not applied, not in doubt', async (t) => {
  const { port, other, first } = await twoLoopbacks(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-hosts-write-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nname: p\nsteps:\n  - id: a\n    uses: transaction-log/clear\n');
  const report = join(dir, 'report.json');
  const r = await withHosts(t, '192.0.2.7 engine2.localhost\n', ['run', file, '--report-json', report], {
    ENGINE_URL: `http://engine2.localhost:${port}`,
    ...CREDENTIALS,
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /may have (been applied|reached)|in doubt/i);
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    counts: { inDoubt: number };
    steps: { inDoubt?: unknown; error?: { code?: string } }[];
  };
  assert.equal(json.steps[0]?.error?.code, 'API_LOCALHOST_OFF_MACHINE');
  assert.equal(json.steps[0]?.inDoubt ?? null, null, 'the call never left');
  assert.equal(json.counts.inDoubt, 0);
  assert.deepEqual([...other, ...first], [], 'nothing was sent');
});
