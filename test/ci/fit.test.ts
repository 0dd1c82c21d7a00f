// What third-party tools read: Azure's task result for a run that succeeded only thanks to
// continue-on-error, every documented output of a single-step action, the server's report
// headings below the summary's own, and run --emulator with the emulator's own options.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ROOT, runActionBundle } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const WITH_ISSUES = `version: 1
steps:
  - uses: monitoring/engines
    continue-on-error: true
    with: { min-online: 99 }
  - uses: transaction-log/clear
`;

test('Azure: a run that succeeded only thanks to continue-on-error completes as SucceededWithIssues', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-azure-'));
  writeFileSync(join(dir, 'p.yml'), WITH_ISSUES);
  const r = await runCli(['run', join(dir, 'p.yml')], {
    env: {
      ENGINE_URL: url,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      TF_BUILD: 'True',
      AGENT_TEMPDIRECTORY: dir,
    },
  });
  assert.equal(r.code, 0, r.stdout);
  assert.match(
    r.stdout,
    /^##vso\[task\.complete result=SucceededWithIssues;\]enginectl: success \(a step failed; continue-on-error let it pass\)$/m,
  );
});

test('the vfs-update action sets every output its action.yml documents, summary included', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionBundle(t, {
    action: 'actions/vfs-update',
    inputs: {
      url,
      username: 'admin',
      password: 'admin',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
      'target-token': 'prod-token',
      files: '1001',
    },
  });
  assert.equal(run.code, 0, run.stdout);
  const documented = Object.keys(
    (parse(readFileSync(join(ROOT, 'actions/vfs-update/action.yml'), 'utf8')) as { outputs: Record<string, unknown> })
      .outputs,
  );
  assert.deepEqual(Object.keys(run.outputs).sort(), [...documented].sort());
  assert.match(run.outputs.summary!, /1 vfs file\(s\) on PROD/);
});

test("the summary's server reports sit below its own headings", () => {
  const summary = readFileSync(new URL('../fixtures/golden/success.md', import.meta.url), 'utf8');
  const inside = summary.slice(summary.indexOf('<details>'));
  assert.ok(/^#### /m.test(inside), 'a server heading, demoted');
  assert.doesNotMatch(inside, /^#{1,3} [^#]/m, "none at the level of the summary's own");
});

test("run --emulator takes the emulator's --fault and --state", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-emulator-flags-'));
  writeFileSync(join(dir, 'p.yml'), 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const faulty = await runCli([
    'run',
    join(dir, 'p.yml'),
    '--emulator',
    '--fault',
    'POST /api/devops/v1/transaction-log/clear status=503',
  ]);
  assert.equal(faulty.code, 1, faulty.stdout);
  assert.match(faulty.stdout, /HTTP 503/);
  const refused = await runCli(['run', join(dir, 'p.yml'), '--fault', 'POST /x status=503']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /go with --emulator/);
  const broken = await runCli(['run', join(dir, 'p.yml'), '--emulator', '--state', join(dir, 'missing.json')]);
  assert.equal(broken.code, 2, broken.stderr);
});
