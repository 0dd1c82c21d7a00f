// Each committed action bundle, run as the GitHub runner runs it (INPUT_* variables, temp
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH) under Node 20 and Node 24, against
// the emulator over HTTP: a smoke test per bundle (exit code, outputs, job summary with the
// server's update report, log groups) and the error path's annotations. What the actions do with
// their inputs is tested in this process through runAction (run-action.test.ts,
// store-inputs.test.ts), where it costs no process and no build.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { node24Path, ROOT, runActionBundle, type ActionRun } from '../helpers/action.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { draft2020 } from '../helpers/schemas.ts';

const PIPELINE = `version: 1
name: Release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    name: Reports to production
    uses: update/vfs
    with: { target: prod, files: "\${{ vars.files }}" }
  - id: sync
    name: Sync the replicas
    uses: replication/sync
`;

const validReport = draft2020(new URL('../../schema/report.schema.json', import.meta.url).pathname);

function assertReport(run: ActionRun, outcome: string) {
  assert.ok(run.outputs.report && existsSync(run.outputs.report), `output report is a file: ${run.outputs.report}`);
  const report = JSON.parse(readFileSync(run.outputs.report, 'utf8')) as { outcome: string };
  assert.ok(validReport(report), JSON.stringify(validReport.errors));
  assert.equal(report.outcome, outcome);
  for (const ext of ['.html', '.junit.xml'])
    assert.ok(existsSync(run.outputs.report.replace(/\.json$/, ext)), `${ext} beside the JSON report`);
}

const NODES: [string, () => string][] = [
  ['Node 20', () => process.execPath],
  ['Node 24', node24Path],
];

for (const [label, node] of NODES) {
  test(`root action, ${label}: runs the pipeline file, writes outputs, the summary with the server report, log groups`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    const run = await runActionBundle(t, {
      action: '.',
      node: node(),
      files: { 'pipelines/release.yml': PIPELINE },
      inputs: {
        pipeline: 'pipelines/release.yml',
        vars: 'files=[1001, 1004]\n# a comment',
        url,
        username: 'admin',
        password: 'admin',
      },
      env: { PROD_TOKEN: 'prod-token' },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs.outcome, 'success');
    const outputs = JSON.parse(run.outputs.outputs!);
    assert.equal(outputs.vfs.inserts, 1);
    assert.equal(outputs.vfs.updates, 1);
    assert.equal(outputs.sync.succeeded, 2);
    assertReport(run, 'success');
    assert.match(run.summary, /^## ✅ Release: success/m);
    assert.match(run.summary, /<summary>✅ Reports to production: succeeded<\/summary>/);
    assert.match(run.summary, /# VFS update of PROD on prod-db\.example\.com/, "the server's own report");
    assert.match(run.stdout, /^::group::\[1\/2\] Reports to production \(update\/vfs\)$/m);
    assert.match(run.stdout, /^::endgroup::$/m);
    assert.match(run.stdout, /^✔ \[2\/2\] Sync the replicas/m);
    assert.equal(emulator.count('POST', '/api/devops/v1/update/vfs'), 1);
  });

  for (const [action, inputs, expect] of [
    [
      'vfs-update',
      {
        files: '1001\n1004',
        'target-server': 'prod-db.example.com',
        'target-database': 'PROD',
        'target-token': 'prod-token',
        'tracking-id': 'CHG-7',
      },
      { inserts: '1', updates: '1', success: 'true' },
    ],
    [
      'system-update',
      {
        products: '[1, 2]',
        'target-server': 'staging-db.example.com',
        'target-database': 'STAGING',
        'target-username': 'deploy',
        'target-password': 'deploy-pass',
        'disable-engine-restart': 'true',
      },
      { success: 'true', versions: '[2611001,2611002,2611003]' },
    ],
    ['replication-sync', { config: '1' }, { succeeded: '2', failed: '0' }],
    ['transaction-log-clear', {}, { status: '200' }],
  ] as const) {
    test(`actions/${action}, ${label}: one step from inputs, its outputs and summary`, async (t) => {
      const { url, emulator } = await startEmulator(t);
      const run = await runActionBundle(t, {
        action: `actions/${action}`,
        node: node(),
        inputs: { url, username: 'admin', password: 'admin', ...inputs },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(run.outputs.outcome, 'success');
      for (const [name, value] of Object.entries(expect)) assert.equal(run.outputs[name], value, `output ${name}`);
      assertReport(run, 'success');
      assert.match(run.summary, /^## ✅ enginectl /m);
      if (action.endsWith('update'))
        assert.match(run.summary, /update of (PROD|STAGING) on/, "the server's update report is in the summary");
      assert.equal(emulator.requests.filter((r) => r.method !== 'GET').length, 1, 'one call');
    });
  }
}

// The wiring of main.ts to @actions/core on the error path: an annotation's file and line, and
// setFailed, as the runner reads them (the rest of a failed run: run-action.test.ts).
test('a failed step, as the runner sees it: exit 1, an ::error on the step line of the pipeline file, setFailed', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionBundle(t, {
    action: '.',
    files: { 'pipelines/release.yml': PIPELINE },
    inputs: { pipeline: 'pipelines/release.yml', vars: 'files=[999999]', url, username: 'admin', password: 'admin' },
    env: { PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, 1, run.stdout);
  assert.equal(run.outputs.outcome, 'failure');
  assert.match(run.stdout, /^::error title=Reports to production failed,file=pipelines\/release\.yml,line=6::/m);
  assert.match(run.stdout, /^::error::"Release" failed: Reports to production/m, 'setFailed');
});

// A self-hosted runner whose work directory is a symbolic link (to a larger disk) starts the
// bundle by a path through the link: Node loads the module at its real path. The action runs all
// the same; it never exits 0 having done nothing.
test('a bundle started by a path through a symbolic link runs the action', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const root = join(mkdtempSync(join(tmpdir(), 'enginectl-linked-')), 'enginectl');
  symlinkSync(ROOT, root);
  for (const action of ['.', 'actions/transaction-log-clear']) {
    const run = await runActionBundle(t, {
      action,
      root,
      files: { 'release.yml': 'version: 1\nname: Release\nsteps:\n  - uses: transaction-log/clear\n' },
      inputs: { ...(action === '.' ? { pipeline: 'release.yml' } : {}), url, username: 'admin', password: 'admin' },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs.outcome, 'success', `${action}: ${run.stdout}`);
  }
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 2);
});
