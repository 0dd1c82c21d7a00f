// The system clock set back while a call is in flight (NTP correcting a CI machine's clock; an
// operator fixing the time): what the reports time is what really passed, never a negative
// duration. The CLI runs under libfaketime (Debian's faketime; scripts/test-tools.mjs installs
// it), whose wall clock the test sets back an hour while the server holds the update's answer;
// the monotonic clock is left alone, as the kernel's is.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, runCliProcess } from '../helpers/cli.ts';
import { listen } from '../helpers/http.ts';
import { until } from '../helpers/timing.ts';

/** libfaketime's multi-threaded library, wherever the architecture puts it. */
function libfaketime(): string {
  const found = readdirSync('/usr/lib')
    .map((dir) => join('/usr/lib', dir, 'faketime', 'libfaketimeMT.so.1'))
    .find((path) => existsSync(path));
  assert.ok(found, 'libfaketime is installed (apt-get install faketime; npm test installs it)');
  return found;
}

const ANSWER = JSON.stringify({
  success: true,
  clientVersion: '2026.11',
  serverVersion: '26.11.0',
  versions: [],
  report: '# Update of PROD',
  messages: [],
  errors: [],
  warnings: [],
  inserts: 1,
  updates: 0,
  deletes: 0,
});

test('the clock set back an hour during a call: every duration in the reports is what really passed, none negative', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-clock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => held.push(res));
  });
  const port = await listen(t, server);
  const at = (f: string) => join(dir, f);
  writeFileSync(
    at('p.yml'),
    'version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: prod-token }\nsteps:\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
  );
  writeFileSync(at('clock'), '+0\n');
  const running = runCliProcess(['run', at('p.yml'), '--report-json', at('r.json'), '--junit', at('r.xml')], {
    command: [process.execPath, CLI],
    env: {
      ENGINE_URL: `http://127.0.0.1:${port}`,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin-password',
      LD_PRELOAD: libfaketime(),
      FAKETIME_TIMESTAMP_FILE: at('clock'),
      FAKETIME_NO_CACHE: '1',
      DONT_FAKE_MONOTONIC: '1',
    },
  });
  await until(() => held.length === 1);
  writeFileSync(at('clock'), '-1h\n');
  held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
  const r = await running;
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as {
    durationMs: number;
    steps: { durationMs: number }[];
  };
  assert.ok(
    report.steps[0]!.durationMs >= 0 && report.steps[0]!.durationMs < 3_600_000,
    `the step took ${report.steps[0]!.durationMs} ms`,
  );
  assert.ok(
    report.durationMs >= report.steps[0]!.durationMs && report.durationMs < 3_600_000,
    `the run took ${report.durationMs} ms`,
  );
  for (const [, time] of readFileSync(at('r.xml'), 'utf8').matchAll(/time="([^"]*)"/g))
    assert.ok(Number(time) >= 0 && Number(time) < 3600, `JUnit time="${time}"`);
  assert.doesNotMatch(r.stdout, / -\d+m?s\b/, 'no negative duration in the log');
});
