// A matrix over GitHub environments, each environment giving its own server URL as a secret (the
// pipeline reads it as secrets.ENGINE_URL), the legs' inputs alike: masked, their "where" digests
// are alike. Attempt 1: the staging leg deploys, the prod leg never runs (its environment's
// approval timed out). "Re-run failed jobs" runs the prod leg as attempt 2: it must never go on
// with the staging leg's run and report success with nothing sent to prod. With
// ENGINECTL_JOURNAL_KEY the marker's digest is of the unmasked URLs and targets (keyed), and the
// prod leg starts a run of its own; without it the re-run cannot tell whose run it found, and is
// refused (RESUME_REFUSED, nothing sent). The same holds for one reusable workflow called once per
// environment (one GITHUB_JOB, one step id).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, type InProcessRun } from '../helpers/toolkit.ts';

const ROOT = actionDef('enginectl');

const PIPELINE = `version: 1
name: Env release
servers:
  main: { url: "\${{ secrets.ENGINE_URL }}", username: admin, password: "\${{ secrets.ENGINE_PASSWORD }}" }
targets:
  db: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.DB_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    server: main
    with: { target: db, files: [1001] }
`;

const KEY = { ENGINECTL_JOURNAL_KEY: '5f0c1d9e8a7b6c5d4e3f2a1b0c9d8e7f' };

async function matrix(t: TestContext, more: Record<string, string>) {
  const staging = await startEmulator(t);
  const prod = await startEmulator(t);
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-rerun-secret-')), 'store');
  mkdirSync(store);
  const job = { GITHUB_RUN_ID: '9100', GITHUB_JOB: 'deploy', GITHUB_ACTION: 'release', GITHUB_REPOSITORY: 'acme/app' };
  /** A leg of the matrix (its environment's ENGINE_URL secret) in attempt `n`. */
  const leg = (url: string, n: number) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': PIPELINE },
      inputs: { pipeline: 'release.yml', store: `file://${store}` },
      env: {
        ...job,
        GITHUB_RUN_ATTEMPT: String(n),
        ENGINE_URL: url,
        ENGINE_PASSWORD: 'admin',
        DB_TOKEN: 'prod-token',
        ...more,
      },
    });
  const vfsSent = (e: typeof staging) =>
    e.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs')).length;
  return { staging, prod, leg, vfsSent };
}

const said = (r: InProcessRun) =>
  [...r.log, ...r.failed, ...r.warnings.map((w) => w.message), ...r.errors.map((e) => e.message)].join('\n');

test("with ENGINECTL_JOURNAL_KEY, the re-run of a matrix leg whose server URL is a secret deploys to its own server in a run of its own; the other leg's re-run goes on with its run", async (t) => {
  const m = await matrix(t, KEY);
  const first = await m.leg(m.staging.url, 1);
  assert.equal(first.code, ExitCode.ok, said(first));
  assert.equal(m.vfsSent(m.staging), 1);

  // "Re-run failed jobs": the prod leg, attempt 2, its environment's secrets.
  const rerun = await m.leg(m.prod.url, 2);
  assert.equal(rerun.code, ExitCode.ok, said(rerun));
  assert.notEqual(
    rerun.outputs['run-id'],
    first.outputs['run-id'],
    `the prod leg went on with the staging leg's run:\n${said(rerun)}`,
  );
  assert.equal(m.vfsSent(m.prod), 1, "prod's vfs update is sent");

  // "Re-run all jobs": the staging leg, attempt 3, goes on with its own run and sends nothing again.
  const again = await m.leg(m.staging.url, 3);
  assert.equal(again.code, ExitCode.ok, said(again));
  assert.equal(again.outputs['run-id'], first.outputs['run-id'], said(again));
  assert.match(said(again), /going on with run/);
  assert.equal(m.vfsSent(m.staging), 1, 'nothing sent to staging again');
  assert.equal(m.vfsSent(m.prod), 1);
});

test('without ENGINECTL_JOURNAL_KEY, the re-run of a matrix leg whose server URL is a secret is refused (RESUME_REFUSED) when an earlier attempt wrote a run: whose it is cannot be told, and nothing is sent', async (t) => {
  const m = await matrix(t, {});
  const first = await m.leg(m.staging.url, 1);
  assert.equal(first.code, ExitCode.ok, said(first));
  assert.equal(m.vfsSent(m.staging), 1);

  const rerun = await m.leg(m.prod.url, 2);
  assert.equal(rerun.code, ExitCode.invalidInput, said(rerun));
  assert.match(rerun.summary, /refused \(RESUME_REFUSED\)/, rerun.summary);
  assert.match(said(rerun), /comes from a secret/);
  assert.match(said(rerun), /ENGINECTL_JOURNAL_KEY/);
  assert.equal(rerun.outputs['run-id'] ?? '', '', 'no run');
  assert.equal(m.prod.emulator.requests.length, 0, 'nothing sent to prod');
  assert.equal(m.vfsSent(m.staging), 1, 'nothing sent to staging again');
});
