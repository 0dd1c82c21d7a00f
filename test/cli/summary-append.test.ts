// The CLI appends its summary to $GITHUB_STEP_SUMMARY, which GitHub refuses whole past 1 MiB for
// the step: what the file holds already (an earlier run in the same step, another tool) is counted,
// the summary fitted in what is left, and when nothing is left it says so rather than tip the file
// over. Through the CLI's entry function, as GitHub's runner runs it (GITHUB_ACTIONS=true).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const LIMIT = 1024 * 1024;

/** An update whose own report is ~850 KiB: a summary that fits alone, but not twice. */
async function bigReport(t: Parameters<typeof startEmulator>[0]) {
  const { url, emulator } = await startEmulator(t);
  const report = `# Big\n\n${Array.from({ length: 15000 }, (_, i) => `| row ${String(i).padStart(6, '0')} | ${'x'.repeat(40)} |`).join('\n')}\n`;
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    body: JSON.stringify({ success: true, report }),
    contentType: 'application/json',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-summary-append-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
name: big-report
servers:
  main: { url: "${url}", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
`,
  );
  const summary = join(dir, 'step-summary.md');
  const run = () =>
    runCli(['run', file], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, PROD_TOKEN: 'prod-token' } });
  return { summary, run };
}

test('two runs in one step: the second summary is fitted in what the first left of the 1 MiB, and says it was cut', async (t) => {
  const { summary, run } = await bigReport(t);
  writeFileSync(summary, '');
  const first = await run();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const alone = statSync(summary).size;
  assert.ok(alone > LIMIT / 2, `the first summary is large: ${alone} bytes`);
  const second = await run();
  assert.equal(second.code, 0, second.stdout + second.stderr);
  const size = statSync(summary).size;
  assert.ok(size <= LIMIT, `$GITHUB_STEP_SUMMARY is ${size} bytes, over GitHub's ${LIMIT}`);
  const added = readFileSync(summary).subarray(alone).toString('utf8');
  assert.match(added, /^## ✅ big-report: success/m, 'the second summary leads as the first');
  assert.match(added, /The summary was cut at \d+ KiB/);
  assert.match(
    second.stdout,
    /job summary: \$GITHUB_STEP_SUMMARY held \d+ KiB already: this summary was fitted in the \d+ KiB left/,
  );
});

test('a step summary already full: nothing that would tip it over 1 MiB is added, and the run says so', async (t) => {
  const { summary, run } = await bigReport(t);
  writeFileSync(summary, `${'y'.repeat(LIMIT - 200)}\n`);
  const r = await run();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const size = statSync(summary).size;
  assert.ok(size <= LIMIT, `$GITHUB_STEP_SUMMARY is ${size} bytes, over GitHub's ${LIMIT}`);
  assert.match(
    r.stdout,
    /::warning::job summary: \$GITHUB_STEP_SUMMARY held 1023 KiB already, of GitHub's 1024 KiB: this run's summary is left out \(its reports hold it\)/,
  );
});
