// A rollout's analysis runs its gates again between waves (a round each): the rounds of one
// instance are that instance's, one output per name, never a clash. Its CI variables (GitLab
// dotenv, Azure setvariable) carry its last round's values, as the JSON report lists them last;
// two different steps whose names clash are still written for neither, and said.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { ROOT } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';

const FILE = join(ROOT, 'pipelines/fleet-rollout.yml');
// The canary's update raises a critical alert 3 minutes on, which monitoring lists from its next
// refresh (5 minutes on at most): round 2 or 3 of the analysis after wave 1 reads it.
const ALERT = 'POST /api/devops/v1/update/vfs site=test raise-alert=critical:disk_full after=3m';

/** Each gate instance's variables as its last entry in the JSON report gives them (its last round, or itself). */
function lastRounds(report: Report): Map<string, string> {
  const expected = new Map<string, string>();
  for (const s of report.steps) {
    if (!s.id || s.outcome === 'skipped') continue;
    const prefix = [s.id, ...Object.values(s.matrix ?? {}).map(String)].join('_').toUpperCase();
    expected.set(`${prefix}_OUTCOME`, s.outcome);
    for (const [key, value] of Object.entries(s.outputs))
      if (['string', 'number', 'boolean'].includes(typeof value))
        expected.set(`${prefix}_${key.toUpperCase()}`, String(value));
  }
  return expected;
}

for (const [what, faults, code] of [
  ['every wave done', [], 0],
  ['halted by the analysis after wave 1', ['--fault', ALERT], 1],
] as const) {
  test(`GitLab dotenv and Azure variables of a rollout whose gates ran in rounds (${what}): each gate instance once, its last round's values, no clash said`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-gate-rounds-'));
    const dotenv = join(dir, 'o.env');
    const json = join(dir, 'report.json');
    const gitlab = await runCli(['run', FILE, '--emulator', '--dotenv', dotenv, '--report-json', json, ...faults], {
      env: { GITLAB_CI: 'true', CI: 'true' },
    });
    assert.equal(gitlab.code, code, gitlab.stdout + gitlab.stderr);
    const said = gitlab.stdout + gitlab.stderr;
    assert.doesNotMatch(said, /left out/, 'no output shares its name with another');
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    assert.ok(
      report.steps.some((s) => s.round !== null),
      'the gates ran again in rounds',
    );
    const expected = lastRounds(report);
    const written = new Map(
      readFileSync(dotenv, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
    );
    assert.deepEqual(Object.fromEntries(written), Object.fromEntries(expected));
    // The waves the analysis ran after: their gates' outputs; a wave never started has its outcome only.
    for (const site of code === 0 ? ['TEST', 'STAGING'] : ['TEST'])
      for (const name of [`ALERTS_${site}_OUTCOME`, `ALERTS_${site}_CRITICALS`, `ENGINES_${site}_ONLINE`])
        assert.ok(written.has(name), `${name} written`);
    if (code === 1) {
      // Round 2 or 3 read the alert: the canary's last round, not its own run before it.
      assert.equal(written.get('ALERTS_TEST_CRITICALS'), '1');
      assert.equal(written.get('ALERTS_TEST_OUTCOME'), 'failure');
      assert.equal(written.get('ALERTS_STAGING_OUTCOME'), 'cancelled', 'wave 2 never started');
    }

    const azure = await runCli(['run', FILE, '--emulator', ...faults], {
      env: { TF_BUILD: 'True', AGENT_TEMPDIRECTORY: tmpdir() },
    });
    assert.equal(azure.code, code, azure.stdout + azure.stderr);
    assert.doesNotMatch(azure.stdout + azure.stderr, /left out/);
    const set = azure.stdout
      .split('\n')
      .filter((l) => l.startsWith('##vso[task.setvariable '))
      .map((l) => /variable=([A-Z0-9_]+);isoutput=true\](.*)$/.exec(l)!.slice(1, 3) as [string, string]);
    assert.deepEqual(set.map(([name]) => name).sort(), [...expected.keys()].sort(), 'each gate instance set once');
    assert.equal(new Map(set).get('ALERTS_TEST_OUTCOME'), expected.get('ALERTS_TEST_OUTCOME'));
  });
}
