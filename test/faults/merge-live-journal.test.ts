// `enginectl report --merge` of the journals of a fleet's jobs, one of them still running: its call
// in flight is not in doubt and its later steps are still to come. Before, the merge read it as a
// job that had ended ("in doubt", the fleet failed) and wrote that into every report asked for.
// It is refused as `report JOURNAL` is (JOURNAL_LOCKED, exit 2, nothing written) while that run
// holds the journal's lock.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const PIPELINE = `version: 1
name: Fleet
vars:
  sites: [a, b]
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - name: "Update \${{ matrix.site }}"
    uses: update/vfs
    matrix: { site: "\${{ vars.sites }}" }
    with: { target: prod, files: [1001] }
`;

test('report --merge of a journal a live job writes is refused (JOURNAL_LOCKED), never merged as a job that ended', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-live-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  assert.equal((await runCli(['run', file, '--only', 'site=a', '--journal', a], { env })).code, 0);
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 });
  const stop = new AbortController();
  const running = runCli(['run', file, '--only', 'site=b', '--journal', b], { env, signal: stop.signal });
  await until(() => emulator.inFlight === 1);

  const json = join(dir, 'fleet.json');
  const merged = await runCli(['report', '--merge', a, b, '--report-json', json]);
  assert.equal(merged.code, 2, merged.stdout + merged.stderr);
  assert.match(merged.stderr, /b\.jsonl is in use by process \d+ .*the run that writes it is still running/);
  assert.match(merged.stderr, /code: JOURNAL_LOCKED/);
  assert.equal(existsSync(json), false, 'no report says the job ended');
  stop.abort(new Error('received SIGTERM'));
  await running;
});
