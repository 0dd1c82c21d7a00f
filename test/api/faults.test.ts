// The client's typed errors under every fault the emulator can inject, and the exact number of
// requests the emulator received: GETs retry transient faults a bounded number of times, POSTs
// are sent exactly once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from 'undici';
import { EngineClient } from '../../src/api/index.ts';
import { closedPort, FAST_RETRY, rejection, startEmulator } from '../helpers/emulator.ts';
import { manualTimer, until } from '../helpers/timing.ts';

const ENGINES = '/api/monitoring/v1/engines';
const VFS = '/api/devops/v1/update/vfs';
const SYSTEM = '/api/devops/v1/update/system';
const vfsBody = {
  targetDBName: 'PROD',
  targetServer: 'prod-db.example.com',
  targetAuthToken: 'prod-token',
  files: [1001],
};

test('connection refused: a GET is tried 1 + 3 times with backoff, a POST once', async (t) => {
  const port = await closedPort();
  const retries: number[] = [];
  const client = new EngineClient(
    { url: `http://127.0.0.1:${port}`, username: 'admin', password: 'admin' },
    {
      retry: FAST_RETRY,
      onRetry: ({ attempt }) => retries.push(attempt),
    },
  );
  t.after(() => client.close());
  const get = await rejection(client.monitoring.engines());
  assert.equal(get.code, 'API_CONNECTION_REFUSED');
  assert.equal(get.attempts, 4);
  assert.deepEqual(retries, [1, 2, 3]);
  assert.match(get.message, new RegExp(`GET ${ENGINES} on http://127\\.0\\.0\\.1:${port}: connection refused`));
  assert.match(String(get.hint), /server is running/);
  retries.length = 0;
  const post = await rejection(client.devops.updateVfs(vfsBody));
  assert.equal(post.code, 'API_CONNECTION_REFUSED');
  assert.equal(post.attempts, 1);
  assert.deepEqual(retries, []);
});

test('503 twice then success: a GET succeeds on its third request', async (t) => {
  const { client, emulator } = await startEmulator(t, {
    faults: [{ method: 'GET', path: ENGINES, status: 503, times: 2 }],
  });
  assert.equal((await client().monitoring.engines()).length, 4);
  assert.equal(emulator.count('GET', ENGINES), 3);
});

test('502 and 504 that persist: a GET gives up after 4 requests with the status in the error', async (t) => {
  for (const status of [502, 504]) {
    const { client, emulator } = await startEmulator(t, { faults: [{ path: ENGINES, status }] });
    const error = await rejection(client().monitoring.engines());
    assert.equal(error.code, 'API_HTTP_STATUS');
    assert.equal(error.status, status);
    assert.equal(error.attempts, 4);
    assert.equal(emulator.count('GET', ENGINES), 4);
  }
});

test('503 on a POST is an error at once: the update is not sent twice', async (t) => {
  const { client, emulator } = await startEmulator(t, { faults: [{ path: VFS, status: 503, times: 1 }] });
  const error = await rejection(client().devops.updateVfs(vfsBody));
  assert.equal(error.code, 'API_HTTP_STATUS');
  assert.equal(error.status, 503);
  assert.equal(emulator.count('POST', VFS), 1);
});

test("500 with a JSON body: the server's message is in the error; no retry", async (t) => {
  const { client, emulator } = await startEmulator(t, {
    faults: [{ path: '/api/monitoring/v1/alerts', status: 500, body: '{"message":"monitoring store offline"}' }],
  });
  const error = await rejection(client().monitoring.alerts());
  assert.equal(error.code, 'API_HTTP_STATUS');
  assert.match(error.message, /answered HTTP 500: monitoring store offline/);
  assert.equal(emulator.count('GET', '/api/monitoring/v1/alerts'), 1);
});

test('500 with an HTML page and with no body: the page\'s heading, never its markup; or "with no body"', async (t) => {
  const html = `<html><body><h1>Internal Server Error</h1>${'x'.repeat(2000)}</body></html>`;
  const { client } = await startEmulator(t, {
    faults: [
      { path: SYSTEM, status: 500, body: html, contentType: 'text/html' },
      { path: VFS, status: 500, body: '' },
    ],
  });
  const withHtml = await rejection(client().devops.updateSystem({ ...vfsBody }));
  assert.match(withHtml.message, /HTTP 500 with an HTML page: "Internal Server Error"$/);
  assert.match(String(withHtml.hint), /proxy, load balancer or login page/);
  assert.equal(withHtml.body, `${html.slice(0, 500)}… (${html.length} chars)`, 'the body, trimmed, for the reports');
  const empty = await rejection(client().devops.updateVfs(vfsBody));
  assert.match(empty.message, /HTTP 500 with no body/);
});

test('connection reset before the answer: GET retried; POST once, saying it may not have been applied', async (t) => {
  const { client, emulator } = await startEmulator(t, {
    faults: [
      { method: 'GET', path: ENGINES, reset: 'before', times: 1 },
      { method: 'POST', path: VFS, reset: 'before' },
    ],
  });
  assert.equal((await client().monitoring.engines()).length, 4);
  assert.equal(emulator.count('GET', ENGINES), 2);
  const error = await rejection(client().devops.updateVfs(vfsBody));
  assert.equal(error.code, 'API_CONNECTION_RESET');
  assert.match(String(error.hint), /may or may not have been applied/);
  assert.equal(emulator.count('POST', VFS), 1);
});

test('connection reset during the response of a POST: the change was made, the client is told, no resend', async (t) => {
  const { client, emulator } = await startEmulator(t, { faults: [{ path: VFS, reset: 'after' }] });
  const error = await rejection(client().devops.updateVfs(vfsBody));
  assert.equal(error.code, 'API_CONNECTION_RESET');
  assert.equal(emulator.count('POST', VFS), 1);
  assert.equal(emulator.state.databases.find((d) => d.name === 'PROD')!.vfsFiles['1001'], 3, 'the update was applied');
});

test('a truncated body is a reset; a GET retries it and succeeds', async (t) => {
  const { client, emulator } = await startEmulator(t, { faults: [{ path: ENGINES, truncate: true, times: 1 }] });
  assert.equal((await client().monitoring.engines()).length, 4);
  assert.equal(emulator.count('GET', ENGINES), 2);
});

test('no answer within the timeout: API_TIMEOUT naming the limit, not retried', async (t) => {
  const { client, emulator } = await startEmulator(t, { faults: [{ path: ENGINES, hang: true }] });
  const limit = manualTimer();
  const call = rejection(client('admin', 'admin', { timer: limit.timer }, 300).monitoring.engines());
  await until(() => emulator.count('GET', ENGINES) === 1);
  assert.deepEqual(limit.pending(), [300]);
  limit.fire();
  const error = await call;
  assert.equal(error.code, 'API_TIMEOUT');
  assert.match(error.message, /no complete answer within 300ms/);
  assert.equal(emulator.count('GET', ENGINES), 1);
  await until(() => emulator.inFlight === 0);
});

test('an AbortSignal cancels a call in flight: API_ABORTED', async (t) => {
  const { client, emulator } = await startEmulator(t, { faults: [{ path: SYSTEM, hang: true }] });
  const controller = new AbortController();
  const call = rejection(client().devops.updateSystem({ ...vfsBody }, { signal: controller.signal }));
  await until(() => emulator.count('POST', SYSTEM) === 1);
  controller.abort();
  const error = await call;
  assert.equal(error.code, 'API_ABORTED');
  await until(() => emulator.inFlight === 0);
});

test('a slow body is read to its end', async (t) => {
  const { client } = await startEmulator(t, { faults: [{ path: ENGINES, chunkDelayMs: 5 }] });
  assert.equal((await client().monitoring.engines()).length, 4);
});

test('invalid JSON is API_INVALID_RESPONSE, not a crash', async (t) => {
  const { client } = await startEmulator(t, { faults: [{ path: ENGINES, invalidJson: true }] });
  const error = await rejection(client().monitoring.engines());
  assert.equal(error.code, 'API_INVALID_RESPONSE');
  assert.match(error.message, /invalid response: the body is not valid JSON/);
});

test('a body of the wrong shape names the field that breaks its documented type', async (t) => {
  const { client } = await startEmulator(t, {
    faults: [
      { path: ENGINES, status: 200, body: '{"engines": []}', times: 1 },
      { path: ENGINES, status: 200, body: '[{"instanceId": 5, "version": "1", "updatedAt": 1}]' },
    ],
  });
  const notArray = await rejection(client().monitoring.engines());
  assert.equal(notArray.code, 'API_INVALID_RESPONSE');
  assert.match(notArray.message, /response: Invalid input: expected array, received object/);
  const badField = await rejection(client().monitoring.engines());
  assert.match(badField.message, /response\[0\]\.instanceId: Invalid input: expected string, received number/);
});

test('an HTML page where JSON was expected (a proxy or login page) says so', async (t) => {
  const { client } = await startEmulator(t, {
    faults: [{ path: ENGINES, status: 200, body: '<html>Sign in</html>', contentType: 'text/html' }],
  });
  const error = await rejection(client().monitoring.engines());
  assert.match(error.message, /expected JSON but got text\/html: <html>Sign in<\/html>/);
  assert.match(String(error.hint), /proxy or login page/);
});

test('unknown properties are kept, at every level', async (t) => {
  const body = JSON.stringify([
    { instanceId: 'e1', version: '27.1', updatedAt: 1, gpu: { cores: 8 }, cpuInfo: { model: 1, microcode: 'x' } },
  ]);
  const { client } = await startEmulator(t, { faults: [{ path: ENGINES, status: 200, body }] });
  const [engine] = await client().monitoring.engines();
  assert.deepEqual(engine!.gpu, { cores: 8 });
  assert.equal(engine!.cpuInfo?.microcode, 'x');
});

test('401: wrong credentials; the message never holds the password', async (t) => {
  const { client } = await startEmulator(t);
  const error = await rejection(client('admin', 'Sup3r-Secret').monitoring.engines());
  assert.equal(error.code, 'API_UNAUTHORIZED');
  assert.match(String(error.hint), /ENGINE_USERNAME/);
  assert.doesNotMatch(`${error.message} ${String(error.hint)} ${String(error.body)}`, /Sup3r-Secret/);
});

test('a DNS failure is API_DNS_FAILURE and says to check the host name', async (t) => {
  const failingLookup = ((_host: string, _opts: unknown, cb: (e: Error) => void) =>
    cb(Object.assign(new Error('getaddrinfo ENOTFOUND erp.invalid'), { code: 'ENOTFOUND' }))) as never;
  const dispatcher = new Agent({ connect: { lookup: failingLookup } });
  t.after(() => dispatcher.close());
  const client = new EngineClient(
    { url: 'http://erp.invalid:8080', username: 'a', password: 'b', allowInsecureHttp: true },
    { dispatcher, retry: FAST_RETRY },
  );
  const error = await rejection(client.devops.clearTransactionLog());
  assert.equal(error.code, 'API_DNS_FAILURE');
  assert.match(String(error.hint), /host name/);
});

test('a failed connection names the server URL with its base path, never its credentials', async (t) => {
  const port = await closedPort();
  const client = new EngineClient({ url: `http://admin:s3cret@127.0.0.1:${port}/sites/emea/` }, { retry: FAST_RETRY });
  t.after(() => client.close());
  const error = await rejection(client.devops.updateVfs(vfsBody));
  assert.equal(error.code, 'API_CONNECTION_REFUSED');
  assert.match(
    error.message,
    new RegExp(`^POST ${VFS} on http://127\\.0\\.0\\.1:${port}/sites/emea: connection refused`),
  );
  assert.doesNotMatch(error.message, /s3cret/);
});
