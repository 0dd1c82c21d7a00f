// A report the action could not write (a full disk, a job summary the runner cannot take) ends the
// step as the CLI ends `run`: exit 1 naming REPORT_NOT_WRITTEN, the run's outcome standing; and
// nothing claims a file that was not written (the log's last line). Each action: the root
// action's run, its dry run and merge mode, a single-step one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import type { AtomicFs } from '../../src/app/atomic-write.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionBundle, type ActionRun } from '../helpers/action.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess, type InProcessRun } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Small disk
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
`;

/** A disk with room for the JSON report only: every other report's file cannot be made (ENOSPC). */
const roomForJson: AtomicFs = {
  ...fs.promises,
  open: (async (path: string, flags: string, mode: number) => {
    if (!basename(path).includes('.json.'))
      throw Object.assign(new Error(`ENOSPC: no space left on device, open '${path}'`), { code: 'ENOSPC' });
    return fs.promises.open(path, flags, mode);
  }) as AtomicFs['open'],
};

test('the root action whose report files cannot be written (a full disk): exit 1 naming REPORT_NOT_WRITTEN as the CLI, the outcome standing, and no file claimed that was not written', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'p.yml': PIPELINE },
    inputs: { pipeline: 'p.yml', url, username: 'admin', password: 'admin' },
    env: { PROD_TOKEN: 'prod-token' },
    reportFs: roomForJson,
  });
  assert.equal(run.code, ExitCode.failed, run.log.join('\n'));
  assert.equal(run.outputs.outcome, 'success', 'the deployment succeeded');
  assert.match(run.failed.join('\n'), /REPORT_NOT_WRITTEN/);
  for (const ext of ['junit.xml', 'md', 'html'])
    assert.ok(
      run.warnings.some((w) =>
        new RegExp(`REPORT_NOT_WRITTEN: --\\S+ \\S+\\.${ext.replace('.', '\\.')}: ENOSPC`).test(w.message),
      ),
      `${ext}: ${JSON.stringify(run.warnings)}`,
    );
  // The JSON report was written, and is the report output; no other file is claimed.
  assert.ok(run.outputs.report?.endsWith('.json') && fs.existsSync(run.outputs.report), run.outputs.report);
  const last = run.log.filter((l) => /reports? in|no report/.test(l));
  assert.deepEqual(last, [`success: report in ${run.outputs.report}`]);
});

test("the outcome output stays the run's when a report is not written, in merge mode and a single-step action too, as the CLI's run says the run's outcome and exits 1", async (t) => {
  const { url } = await startEmulator(t);
  const server = { url, username: 'admin', password: 'admin' };
  // The CLI on the same full disk (its job summary): the run's line says success, the exit is 1.
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-not-written-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE);
  const cli = await runCli(['run', join(dir, 'p.yml'), '--report-json', join(dir, 'r.json')], {
    env: {
      ENGINE_URL: url,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      PROD_TOKEN: 'prod-token',
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: '/dev/full',
    },
  });
  assert.equal(cli.code, ExitCode.failed, cli.stdout + cli.stderr);
  assert.match(cli.stdout, /^pipeline "Small disk": success in /m);
  assert.match(cli.stderr, /REPORT_NOT_WRITTEN: job summary: ENOSPC/);
  assert.equal(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).outcome, 'success');
  const runs: Record<string, InProcessRun> = {
    merge: await runActionInProcess(actionDef('enginectl'), {
      files: { 'reports/a.json': readFileSync(join(dir, 'r.json'), 'utf8') },
      inputs: { merge: 'reports' },
      reportFs: roomForJson,
    }),
    'single step': await runActionInProcess(actionDef('vfs-update'), {
      inputs: {
        ...server,
        files: '1001',
        'target-server': 'prod-db.example.com',
        'target-database': 'PROD',
        'target-token': 'prod-token',
      },
      reportFs: roomForJson,
    }),
  };
  for (const [which, run] of Object.entries(runs)) {
    assert.equal(run.code, ExitCode.failed, `${which}: ${run.log.join('\n')}`);
    assert.equal(run.outputs.outcome, 'success', `${which}: the outcome output is the run's`);
    assert.match(
      run.failed.join('\n'),
      /succeeded, but 3 report\(s\) could not be written \(REPORT_NOT_WRITTEN\)/,
      which,
    );
  }
});

test('a job summary the runner cannot take (GITHUB_STEP_SUMMARY=/dev/full): exit 1 naming REPORT_NOT_WRITTEN, in the root action, its dry run, merge mode and a single-step action', async (t) => {
  const { url } = await startEmulator(t);
  const server = { url, username: 'admin', password: 'admin' };
  const full = { GITHUB_STEP_SUMMARY: '/dev/full' };
  const runs: Record<string, ActionRun> = {
    run: await runActionBundle(t, {
      action: '.',
      files: { 'p.yml': PIPELINE },
      inputs: { pipeline: 'p.yml', ...server },
      env: { PROD_TOKEN: 'prod-token', ...full },
    }),
    'dry run': await runActionBundle(t, {
      action: '.',
      files: { 'p.yml': PIPELINE },
      inputs: { pipeline: 'p.yml', 'dry-run': 'true', ...server },
      env: { PROD_TOKEN: 'prod-token', ...full },
    }),
    'single step': await runActionBundle(t, { action: 'actions/replication-sync', inputs: server, env: full }),
  };
  const { report } = runs.run!.outputs;
  assert.ok(report, runs.run!.stdout);
  runs.merge = await runActionBundle(t, {
    action: '.',
    files: { 'reports/a.json': readFileSync(report, 'utf8') },
    inputs: { merge: 'reports' },
    env: full,
  });
  for (const [which, run] of Object.entries(runs)) {
    assert.equal(run.code, ExitCode.failed, `${which}: ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^::error.*REPORT_NOT_WRITTEN.*job summary/m, `${which}: ${run.stdout}`);
  }
  assert.equal(runs.run!.outputs.outcome, 'success');
  assert.equal(runs['dry run']!.outputs.outcome, 'dry-run');
});
