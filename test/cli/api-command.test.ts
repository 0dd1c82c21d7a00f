// `enginectl api` as a process, against the embedded emulator and a served one.
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { startSource } from '../helpers/source-process.ts';

test('api GET --emulator prints the JSON body pretty-printed and exits 0', async () => {
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/engines', '--emulator']);
  assert.equal(r.code, 0, r.stderr);
  const engines = JSON.parse(r.stdout) as { instanceId: string }[];
  assert.equal(engines.length, 4);
  assert.match(r.stdout, /^\[\n {2}\{\n {4}"instanceId"/);
});

test('a non-2xx answer prints the body, says the status on stderr and exits 1', async () => {
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/engines/nope', '--emulator']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).status, 404);
  assert.equal(r.stderr, 'enginectl: GET /api/monitoring/v1/engines/nope answered HTTP 404: no Engine with id nope\n');
});

test('--emulator with ENGINE_USERNAME calls as that user: a monitor cannot clear the log (403, exit 1)', async () => {
  const r = await runCli(['api', 'POST', '/api/devops/v1/transaction-log/clear', '--emulator'], {
    env: { ENGINE_USERNAME: 'monitor', ENGINE_PASSWORD: 'monitor' },
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /HTTP 403: user monitor lacks the scope api\.devops and system\.clearTransactionLog/);
});

test('ENGINE_URL, ENGINE_USERNAME and ENGINE_PASSWORD select the server; --data posts JSON, @FILE and @- read it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const body = {
    targetDBName: 'PROD',
    targetServer: 'prod-db.example.com',
    targetAuthToken: 'prod-token',
    files: [1004],
  };
  const r = await runCli(['api', 'POST', '/api/devops/v1/update/vfs', '--data', JSON.stringify(body)], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).summary, '1 vfs file(s) on PROD: 1 inserted, 0 updated, 0 unchanged');
  assert.doesNotMatch(r.stdout, /prod-token/, 'the server blanks credentials and the CLI adds none');
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-'));
  writeFileSync(join(dir, 'entity.json'), '[{"istatus": 3}]');
  const fromFile = await runCli(
    ['api', 'PATCH', '/api/classes/v1/entities/2001', '--data', `@${join(dir, 'entity.json')}`],
    { env },
  );
  assert.equal(JSON.parse(fromFile.stdout).istatus, 3);
  const fromStdin = await runCli(['api', 'PUT', '/api/classes/v1/entities/2001', '-d', '@-'], {
    env,
    input: '[{"istatus": 4}]',
  });
  assert.equal(JSON.parse(fromStdin.stdout).istatus, 4);
  assert.equal(emulator.count('POST', '/api/devops/v1/update/vfs'), 1);
});

test('a license code goes as text/plain with --content-type; --include prints status and headers', async (t) => {
  const { url } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const create = await runCli(
    [
      'api',
      'POST',
      '/api/licensing/v1/licenses/create',
      '-d',
      '{"licenseeId":"A","licenseeName":"B","expiration":"2030-01-01","licenses":[{"productKey":3,"quantity":2,"type":"U"}]}',
    ],
    { env },
  );
  assert.equal(create.code, 0, create.stderr);
  const add = await runCli(
    ['api', 'POST', '/api/licensing/v1/licenses', '-i', '--content-type', 'text/plain', '--data', create.stdout.trim()],
    { env },
  );
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /^HTTP 200\n/);
  assert.match(add.stdout, /content-type: application\/json/);
  const query = await runCli(['api', 'GET', '/api/licensing/v1/licenses/3'], { env });
  assert.equal(JSON.parse(query.stdout).type, 'nominalUser');
});

test('a query string in PATH is kept as equality filters', async (t) => {
  const { url } = await startEmulator(t);
  const r = await runCli(['api', 'GET', '/api/classes/v1/classes/22/entities?entidade=3001'], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.deepEqual(
    JSON.parse(r.stdout).map((e: { ikey: number }) => e.ikey),
    [4001, 4002],
  );
});

test('input errors are exit 2 with a hint: no server, bad JSON, bad method, bad path', async () => {
  const cases: [string[], RegExp][] = [
    [['api', 'GET', '/api/monitoring/v1/engines'], /no server to call[\s\S]*hint: set ENGINE_URL/],
    [['api', 'POST', '/x', '--emulator', '--data', '{oops'], /--data is not valid JSON/],
    [['api', 'FETCH', '/x', '--emulator'], /unknown method FETCH/],
    [['api', 'GET', 'api/x', '--emulator'], /PATH must start with \//],
    [['api', 'GET', '/x', '--emulator', '--timeout', 'soon'], /--timeout soon: not a duration/],
  ];
  for (const [args, pattern] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, pattern);
  }
});

test('a transport failure is exit 1 with what failed and what to check; the password is never printed', async () => {
  const r = await runCli(['api', 'POST', '/api/devops/v1/transaction-log/clear'], {
    env: { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'Pa55-w0rd-XYZ' },
  });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /POST \/api\/devops\/v1\/transaction-log\/clear on http:\/\/127\.0\.0\.1:9: connection refused\n {2}hint: check that the server is running/,
  );
  assert.doesNotMatch(r.stdout + r.stderr, /Pa55-w0rd-XYZ/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('--data @FILE or @- over the 16 MiB a request body may hold is refused (exit 2) naming the limit; nothing is sent', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  // Valid JSON, one byte over 16 MiB: what is refused is its size, not its text.
  const body = `"${'x'.repeat(16 * 1024 * 1024 - 1)}"`;
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-')), 'big.json');
  writeFileSync(file, body);
  const cases: [string, string[], string | undefined, RegExp][] = [
    [
      '@FILE',
      ['--data', `@${file}`],
      undefined,
      /^enginectl: --data @\S+big\.json: the body is 16777217 bytes; a request body is limited to 16777216 bytes \(16 MiB\); nothing was sent\n {2}hint: /,
    ],
    [
      '@-',
      ['--data', '@-'],
      body,
      /^enginectl: --data @-: the body is (16777217|over 16777216) bytes; a request body is limited to 16777216 bytes \(16 MiB\); nothing was sent\n/,
    ],
  ];
  for (const [what, data, input, message] of cases) {
    const r = await runCli(['api', 'PATCH', '/api/classes/v1/entities/2001', ...data], { env, input });
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    assert.match(r.stderr, message, what);
    assert.match(r.stderr, /code: BAD_DATA\n$/, what);
    assert.doesNotMatch(r.stderr, /\n\s+at /, what);
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});

test(
  'a --data @FILE or @- that never ends (/dev/zero) is read up to the 16 MiB limit and refused with it (exit 2), not read until memory runs out',
  { skip: !existsSync('/dev/zero') },
  async () => {
    // The CLI from its source as a process: the reader is the process edge's (main.ts). A server
    // nobody listens on: were the call made, it would fail (exit 1).
    const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
    const file = await startSource(['api', 'POST', '/api/devops/v1/update/vfs', '--data', '@/dev/zero'], { env }).ended;
    assert.equal(file.code, 2, file.stderr);
    assert.match(
      file.stderr,
      /^enginectl: --data @\/dev\/zero: the body is over 16777216 bytes; a request body is limited/,
    );
    const zero = openSync('/dev/zero', 'r');
    const stdin = await startSource(['api', 'POST', '/api/devops/v1/update/vfs', '-d', '@-'], { env, stdin: zero })
      .ended;
    closeSync(zero);
    assert.equal(stdin.code, 2, stdin.stderr);
    assert.match(stdin.stderr, /^enginectl: --data @-: the body is over 16777216 bytes; a request body is limited/);
    assert.doesNotMatch(file.stderr + stdin.stderr, /Invalid string length|\n\s+at /);
  },
);

test('a PATH the URL parser would rewrite is refused before anything is sent: a dot segment (written or %2e), an authority (//host), a fragment, a backslash, and each of them hidden by a tab, a line break or a space the parser drops', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  for (const path of [
    '/api/../_emulator/state',
    '/api/monitoring/v1/%2e%2e/%2E%2e/_emulator/state',
    '/api/monitoring/v1/./engines',
    '//evil.example/api/monitoring/v1/engines',
    '/api/monitoring/v1/engines#fragment',
    '/api\\..\\_emulator/state',
    // What a URL parser drops before it resolves: a tab or a line break inside, a space at the end.
    '/api/.\t./_emulator/state',
    '/api/.\n./_emulator/state',
    '/api/monitoring/v1/engines/.. ',
    '/\t/evil.example/api/monitoring/v1/engines',
  ]) {
    const r = await runCli(['api', 'GET', path], { env });
    assert.equal(r.code, 2, `${path}: exit ${r.code}\n${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /api: PATH /, path);
    assert.match(r.stderr, /code: BAD_ARGUMENTS/, path);
    assert.equal(r.stdout, '', path);
  }
  assert.deepEqual(emulator.requests, [], 'nothing was sent');
});

test("a write whose fate is unknown (a 503, a gateway's page, cancelled while the server holds it) is said to be maybe applied, to check before sending it again; a refusal or a read is not", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const vfs = JSON.stringify({
    targetDBName: 'PROD',
    targetServer: 'prod-db.example.com',
    targetAuthToken: 'prod-token',
    files: [1001],
  });
  const maybe = /may have applied it[\s\S]*check on the server whether the change was made before sending it again/;
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 503, times: 1 });
  const unavailable = await runCli(['api', 'POST', '/api/devops/v1/update/vfs', '--data', vfs], { env });
  assert.equal(unavailable.code, 1, unavailable.stderr);
  assert.match(unavailable.stderr, maybe, unavailable.stderr);
  // A proxy that gave up: the change made, its own HTML page answered.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const page = await runCli(['api', 'POST', '/api/devops/v1/update/vfs', '--data', vfs], { env });
  assert.match(page.stderr, maybe, page.stderr);

  // Cancelled (Ctrl-C) while the server holds the request: sent, and its fate unknown.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 });
  const stop = new AbortController();
  const held = runCli(['api', 'POST', '/api/devops/v1/update/vfs', '--data', vfs], { env, signal: stop.signal });
  while (!emulator.requests.some((r) => r.fault?.includes('hang'))) await new Promise((r) => setImmediate(r));
  stop.abort();
  const cancelled = await held;
  assert.notEqual(cancelled.code, 0);
  assert.match(cancelled.stderr, maybe, cancelled.stderr);

  // Refused by the API (its 4xx), or a read: nothing to check.
  const refused = await runCli(['api', 'POST', '/api/devops/v1/update/vfs', '--data', '{}'], { env });
  assert.equal(refused.code, 1);
  assert.doesNotMatch(refused.stderr, /may have applied/, refused.stderr);
  emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/engines', status: 503, times: 5 });
  const read = await runCli(['api', 'GET', '/api/monitoring/v1/engines', '--timeout', '1m'], { env });
  assert.doesNotMatch(read.stderr, /may have applied/, read.stderr);
});
