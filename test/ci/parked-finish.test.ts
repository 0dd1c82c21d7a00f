// The lines that end a CI job say what the report heads the run: a parked run (exit 75) is
// "succeeded with issues" in Azure Pipelines, saying it parked, never "Succeeded ... success"; a
// success that left a write in doubt (exit 1) is never "success" either. The run's last line says
// "parked" (or "in doubt") under every CI system, as the summary's heading does.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';

const PARKED = 75;
const ALERT = 'POST /api/devops/v1/update/vfs site=test raise-alert=critical:disk_full after=3m';

/** pipelines/fleet-rollout.yml, its rollout parking for a decision when a wave or its analysis fails. */
function parkingRollout(): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-parked-finish-'));
  cpSync(join(ROOT, 'pipelines/inventory'), join(dir, 'inventory'), { recursive: true });
  const text = readFileSync(join(ROOT, 'pipelines/fleet-rollout.yml'), 'utf8');
  const file = join(dir, 'park.yml');
  writeFileSync(file, text.replace(/^( {2}max-failures: 0\n)/m, '$1  on-failure: decide\n'));
  assert.match(readFileSync(file, 'utf8'), /^ {2}on-failure: decide$/m);
  return { file, dir };
}

async function park(env: Record<string, string>) {
  const { file, dir } = parkingRollout();
  const store = mkdtempSync(join(tmpdir(), 'enginectl-parked-finish-store-'));
  const summary = join(dir, 'summary.md');
  const r = await runCli(
    ['run', file, '--emulator', '--store', pathToFileURL(store).href, '--summary', summary, '--fault', ALERT],
    { env },
  );
  assert.equal(r.code, PARKED, r.stdout + r.stderr);
  assert.match(readFileSync(summary, 'utf8'), /^## ⏸️ Release 2026\.11, in waves: parked$/m);
  return { ...r, lines: r.stdout.split('\n') };
}

const summaryLineOf = (stdout: string) => stdout.split('\n').find((l) => l.startsWith('pipeline "'));

test('Azure Pipelines: a parked run (exit 75) ends its task succeeded with issues, saying it parked and for what; its last line says parked, not success', async () => {
  const r = await park({ TF_BUILD: 'True', AGENT_TEMPDIRECTORY: tmpdir(), BUILD_SOURCESDIRECTORY: tmpdir() });
  const complete = r.lines.filter((l) => l.startsWith('##vso[task.complete'));
  assert.equal(complete.length, 1, r.stdout);
  assert.match(
    complete[0]!,
    /^##vso\[task\.complete result=SucceededWithIssues;\]enginectl: parked: waiting for a decision on wave 1: the analysis after it failed: .*critical disk_full/,
  );
  assert.doesNotMatch(complete[0]!, /success/);
  assert.match(
    summaryLineOf(r.stdout) ?? '',
    /^pipeline "Release 2026\.11, in waves": parked in .*; waiting for a decision on wave 1: /,
  );
  assert.doesNotMatch(summaryLineOf(r.stdout) ?? '', /success/);
});

test("GitLab CI and no CI: a parked run's last line says parked, not success", async () => {
  for (const env of [{ GITLAB_CI: 'true', CI: 'true' }, {}] as Record<string, string>[]) {
    const r = await park(env);
    assert.doesNotMatch(r.stdout, /##vso/);
    assert.match(
      summaryLineOf(r.stdout) ?? '',
      /^pipeline "Release 2026\.11, in waves": parked in .*; waiting for a decision on wave 1: /,
    );
    assert.doesNotMatch(summaryLineOf(r.stdout) ?? '', /success/);
  }
});

test('Azure Pipelines: a continue-on-error write left in doubt (exit 1) ends its task failed, in doubt, never "success ... continue-on-error let it pass"', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-doubt-finish-'));
  cpSync(join(ROOT, 'pipelines/inventory'), join(dir, 'inventory'), { recursive: true });
  const file = join(dir, 'doubt.yml');
  writeFileSync(
    file,
    `version: 1
name: Doubtful
include: [inventory/sites.yml]
steps:
  - id: vfs
    uses: update/vfs
    server: test
    continue-on-error: true
    with: { target: test, files: [1001] }
`,
  );
  const r = await runCli(['run', file, '--emulator', '--fault', 'POST /api/devops/v1/update/vfs gateway=504 times=1'], {
    env: { TF_BUILD: 'True', AGENT_TEMPDIRECTORY: tmpdir() },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^pipeline "Doubtful": in doubt in /m);
  const complete = r.stdout.split('\n').filter((l) => l.startsWith('##vso[task.complete'));
  assert.equal(complete.length, 1, r.stdout);
  assert.match(complete[0]!, /^##vso\[task\.complete result=Failed;\]enginectl: in doubt/);
  assert.doesNotMatch(complete[0]!, /success|let it pass/);
});
