// CI systems enginectl has no conventions for still read its log: a TeamCity agent acts on a
// service message (`##teamcity[setParameter ...]`, `##teamcity[buildStatus ...]`) anywhere in a
// line, Buildkite opens a log group at a line starting `--- `, `+++ ` or `~~~ ` and reopens the
// one before at `^^^ +++`. On both enginectl is `plain` (docs/install.md names their agents as a
// target of the executables); a server's text in its log commands neither, through the CLI's entry.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertInertLog } from '../helpers/inert-log.ts';

const TEAMCITY = [
  'disk full',
  "##teamcity[setParameter name='env.ENGINE_URL' value='https://PWNED.example']",
  "##teamcity[buildStatus status='SUCCESS' text='PWNED all good']",
  "the rest ##teamcity[publishArtifacts 'PWNED/**']",
].join('\n');
const BUILDKITE = [
  'disk full',
  '--- PWNED all good: nothing to see below',
  '+++ PWNED expanded',
  '~~~ PWNED de-emphasised',
  '^^^ +++',
].join('\n');

for (const [system, env, message] of [
  ['TeamCity', { TEAMCITY_VERSION: '2024.07' }, TEAMCITY],
  ['Buildkite', { BUILDKITE: 'true', CI: 'true' }, BUILDKITE],
] as const) {
  test(`${system}: a server's text in the log is no service message and opens no log group`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    emulator.state.alerts.push({ severity: 'critical', code: 'disk_full', engineId: 'eng-prod-01', message });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-other-ci-'));
    writeFileSync(
      join(dir, 'p.yml'),
      'version: 1\nname: tc\nsteps:\n  - { id: alerts, uses: monitoring/alerts, with: { fail-on: critical } }\n',
    );
    const r = await runCli(['run', join(dir, 'p.yml')], {
      env: { ...env, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /1 alert\(s\) at or above critical/);
    assertInertLog('stdout', r.stdout);
    assertInertLog('stderr', r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /##teamcity\[/, 'no service message anywhere in a line');
  });
}
