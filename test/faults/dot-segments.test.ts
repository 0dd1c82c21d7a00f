// An id of `.` or `..` (written, or read from an earlier answer) is a path segment every URL
// parser removes (`%2E` too): `DELETE …/classes/12/entities/..` leaves as `DELETE …/classes/12/`,
// another resource than the one the step names and the journal records. Such a call is refused
// before it leaves (API_BAD_PATH), never sent, so never in doubt. Before, the emulator received
// `DELETE /api/classes/v1/classes/12/` and `PATCH /api/classes/v1/classes/12/entities/` while the
// journal recorded `…/entities/..` and `…/entities/.` (its 404s named routes the step never named).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { listen } from '../helpers/http.ts';

const PIPELINE = `version: 1
steps:
  - id: find
    uses: classes/query
    with: { class: 12, where: { ikey: 2001 } }
  - id: delete
    uses: classes/delete
    continue-on-error: true
    with: { id: "\${{ steps.find.outputs.entities[0].iname }}", class: 12 }
  - id: update
    uses: classes/update
    continue-on-error: true
    with: { id: ".", class: 12, fields: { iname: renamed } }
  - id: get
    uses: classes/get
    continue-on-error: true
    with: { id: ".." }
`;

interface Report {
  steps: { id: string; outcome: string; error: { code: string; message: string } | null; inDoubt: unknown }[];
}

test('an entity id of . or .. is refused before it leaves: the call would reach another resource', async (t) => {
  const { url, emulator } = await startEmulator(t);
  // The user the query finds is named `..` (a server's value, read into the next step's id).
  const state = emulator.state;
  const user = state.entities.find((e) => e.ikey === 2001)!;
  user.iname = '..';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dot-segments-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), PIPELINE);

  const r = await runCli(['run', at('p.yml'), '--journal', at('j.jsonl'), '--report-json', at('r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });

  assert.equal(r.code, 0, r.stdout + r.stderr); // the refusals are continue-on-error
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as Report;
  assert.deepEqual(
    report.steps.map((s) => [s.id, s.outcome, s.error?.code, s.inDoubt !== null]),
    [
      ['find', 'success', undefined, false],
      ['delete', 'failure', 'API_BAD_PATH', false],
      ['update', 'failure', 'API_BAD_PATH', false],
      ['get', 'failure', 'API_BAD_PATH', false],
    ],
    r.stdout,
  );
  assert.match(
    report.steps[1]!.error!.message,
    /DELETE \/api\/classes\/v1\/classes\/12\/entities\/\.\. on .*: not sent/,
  );
  const sent = emulator.requests.map((q) => `${q.method} ${q.path}`);
  assert.deepEqual(
    sent.filter(
      (s) =>
        !s.startsWith('GET /api/classes/v1/classes/12/entities?') && s !== 'GET /api/classes/v1/classes/12/entities',
    ),
    [],
    'nothing but the query was sent',
  );
});

test('a . or .. in the query string is no path segment: the call is sent as written', async (t) => {
  // A server that records the request line as it arrives, query included (the emulator's log has no query).
  const got: string[] = [];
  const server = createServer((req, res) => {
    got.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const port = await listen(t, server);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dot-segments-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(
    at('p.yml'),
    `version: 1
steps:
  - id: alerts
    uses: api/request
    with: { method: GET, path: "/api/monitoring/v1/alerts?next=/a/../b" }
  - id: encoded
    uses: api/request
    with: { method: GET, path: "/api/monitoring/v1/alerts?next=%2e%2e#/x/." }
`,
  );
  const r = await runCli(['run', at('p.yml')], {
    env: { ENGINE_URL: `http://127.0.0.1:${port}`, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(
    got,
    ['GET /api/monitoring/v1/alerts?next=/a/../b', 'GET /api/monitoring/v1/alerts?next=%2e%2e'],
    r.stdout,
  );
});

test('an api/request path whose dot segment a tab, a line break or a backslash hides is refused too: the URL parser drops the first two and reads the third as a slash', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dot-segments-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paths = ['/api/.\t./_emulator/state', '/api/.\n./_emulator/state', '/api\\..\\_emulator/state'];
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1\nsteps:\n${paths
      .map(
        (p, i) =>
          `  - { id: r${i}, uses: api/request, continue-on-error: true, with: { method: GET, path: ${JSON.stringify(p)} } }`,
      )
      .join('\n')}\n`,
  );
  const r = await runCli(['run', join(dir, 'p.yml'), '--report-json', join(dir, 'r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report;
  assert.deepEqual(
    report.steps.map((s) => [s.id, s.error?.code]),
    paths.map((_, i) => [`r${i}`, 'API_BAD_PATH']),
    r.stdout,
  );
  assert.deepEqual(emulator.requests, [], 'nothing was sent');
});
