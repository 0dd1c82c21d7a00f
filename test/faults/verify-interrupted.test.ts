// verify, and a resume's --in-doubt verify, cut by a signal while they read a target back: the
// interruption it is (CANCELLED, exit 130), saying only reads were sent. Before, the read's own
// error was printed, "GET /api/monitoring/v1/engines ...: cancelled, code: API_ABORTED", exit 1:
// the code of a call whose fate is unknown, from a command that sends no write.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const PIPELINE = `version: 1
name: Verify cut
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: system
    uses: update/system
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
`;

test('verify and --in-doubt verify cut by a signal while reading back: CANCELLED, exit 130, only reads sent', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-cut-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', reset: 'after', times: 1 });
  const run = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const commands = [
    ['verify', journal],
    ['run', file, '--resume', journal, '--in-doubt', 'verify'],
  ];
  for (const args of commands) {
    emulator.faults.add({ method: 'GET', path: '/api/monitoring/v1/engines', hang: true, times: 1 });
    const posts = emulator.requests.filter((r) => r.method === 'POST').length;
    const inFlight = emulator.inFlight;
    const stop = new AbortController();
    const cut = runCli(args, { env, signal: stop.signal });
    await until(() => emulator.inFlight > inFlight);
    stop.abort(new Error('received SIGTERM'));
    const r = await cut;
    assert.equal(r.code, 130, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /reading back the calls in doubt was interrupted \(received SIGTERM\); only reads were sent: run it again/,
    );
    assert.match(r.stderr, /code: CANCELLED/);
    assert.doesNotMatch(r.stderr, /API_ABORTED/);
    assert.equal(emulator.requests.filter((r) => r.method === 'POST').length, posts, 'no write sent');
  }
});
