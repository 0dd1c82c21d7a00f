// `enginectl api` prints what a server answered, often in a CI job's log, often into `jq`. A JSON
// answer is printed so that it parses to the server's very values (jq sees them exactly) while no
// line of it commands a CI system or a terminal: `::`, `##` and `section_start:` inside strings,
// DEL, C1 and bidirectional controls are written as JSON escapes. A text answer is neutralised as
// the run's lines are, unless --raw asks for its bytes. Headers (-i) and the error line on stderr
// are neutralised too. Through the CLI's entry, on GitHub and Azure.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertInertLog } from '../helpers/inert-log.ts';

const CI: Record<string, string>[] = [{ GITHUB_ACTIONS: 'true' }, { TF_BUILD: 'True', AGENT_TEMPDIRECTORY: '/tmp' }];

/** What a hostile server puts in a string: commands of every CI, escapes, controls. */
const HOSTILE = [
  'disk ##vso[task.setvariable variable=ENGINE_URL]https://PWNED.example',
  '::warning title=Deploy approved::PWNED',
  "##teamcity[buildStatus status='SUCCESS' text='PWNED']",
  'section_start:1:pwned[collapsed=true]',
  '\x1b]8;;https://evil.example\x07PWNED-OSC\x1b]8;;\x07\x1b[2K',
  '\u009b2J \u202ePWNED-BIDI\u202c \u007f \u2028',
].join('\n');

/** Asserts a CI log of `text` acts on nothing: no command at a line's start, and none of Azure's or TeamCity's anywhere in one. */
function assertInert(channel: string, text: string) {
  assertInertLog(channel, text);
  assert.doesNotMatch(text, /##vso\[|##teamcity\[/i, `${channel}: a command Azure or TeamCity acts on mid-line`);
  assert.doesNotMatch(text, /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, `${channel}: a raw control`);
}

for (const ci of CI) {
  const name = Object.keys(ci)[0]!;
  test(`api on ${name}: a JSON answer parses to the server's exact values, and none of its lines commands the CI or the terminal`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    const alerts = [{ severity: 'warning', code: HOSTILE, engineId: 'e', message: HOSTILE, [HOSTILE]: 'key' }];
    emulator.faults.add({
      method: 'GET',
      path: '/api/monitoring/v1/alerts',
      status: 200,
      body: JSON.stringify(alerts),
      contentType: 'application/json',
    });
    const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], {
      env: { ...ci, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), alerts, 'jq reads what the server sent');
    assert.match(r.stdout, /^\[\n {2}\{\n {4}"severity": "warning"/, 'still pretty-printed');
    assertInert('stdout', r.stdout);
  });
}

test("api: a text answer is neutralised as the run's lines are; --raw prints it as it came (masked)", async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/engines',
    status: 200,
    body: `engines ok\n${HOSTILE}\n`,
    contentType: 'text/plain',
    times: 2,
  });
  const env = { GITHUB_ACTIONS: 'true', ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/engines'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^engines ok\n/);
  assert.match(r.stdout, /^:\u200B:warning title=Deploy approved:\u200B:PWNED$/m, 'shown, broken');
  assertInert('stdout', r.stdout);
  const raw = await runCli(['api', 'GET', '/api/monitoring/v1/engines', '--raw'], { env });
  assert.equal(raw.code, 0, raw.stderr);
  assert.equal(raw.stdout, `engines ok\n${HOSTILE}\n`, 'the bytes the server sent');
});

/** A server answering every request with `status`, a header holding an Azure command, and `body`. */
async function headerServer(t: TestContext, status: number, body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-note': 'ok ##vso[task.setvariable variable=PWNED]1 ::warning::PWNED',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("api -i on Azure: a header commands nothing; a refusal's message on stderr commands nothing either", async (t) => {
  const url = await headerServer(t, 500, JSON.stringify({ status: 500, message: `failed\n${HOSTILE}` }));
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/engines', '-i'], {
    env: { TF_BUILD: 'True', ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^HTTP 500\n/);
  assert.match(r.stdout, /^x-note: ok #\u200B#vso\[/m);
  assertInert('stdout', r.stdout);
  assert.match(r.stderr, /answered HTTP 500: failed/);
  // The agent's own masking names the password on purpose (##vso[task.setsecret], on stderr: stdout is the answer); nothing else may command it.
  assert.match(r.stderr, /^##vso\[task\.setsecret\]admin:admin$/m);
  assertInert('stderr', r.stderr.replace(/^##vso\[task\.setsecret\][\w+/=:%]*$/gm, ''));
});
