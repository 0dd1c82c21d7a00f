// A pipeline file is text from outside when a pull request brings it: `validate` runs on a fork's
// pull request, with no secret, to say what is wrong. Its file name, its name, its step names and
// types reach the log as text a CI system shows, never as a command it acts on (a GitHub workflow
// command, an Azure logging command), whichever command prints them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runActionBundle } from '../helpers/action.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertInertLog } from '../helpers/inert-log.ts';

const HOSTILE = `version: 1
name: "Release\\n::error title=X::PWNED-NAME\\n##vso[task.setvariable variable=PWNED]PWNED-NAME"
steps:
  - name: "Gate\\n::warning::PWNED-STEP"
    uses: monitoring/alerts
`;
const INVALID = `version: 1
name: "Release\\n::error::PWNED-NAME"
steps:
  - uses: "nope\\n::error::PWNED-TYPE"
`;
/** A file name a pull request can hold (git allows a line break in a path). */
const FILE = 'release\n::warning::FILE-INJECTED.yml';

function files(t: TestContext): { dir: string; hostile: string; invalid: string } {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-pipeline-text-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const hostile = join(dir, FILE);
  const invalid = join(dir, `invalid-${FILE}`);
  writeFileSync(hostile, HOSTILE);
  writeFileSync(invalid, INVALID);
  return { dir, hostile, invalid };
}

function assertInert(what: string, r: CliResult): void {
  assertInertLog(`${what}: stdout`, r.stdout);
  assertInertLog(`${what}: stderr`, r.stderr);
  for (const [channel, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ]) {
    assert.doesNotMatch(text!, /^\s*::warning::FILE-INJECTED/m, `${what}: ${channel}: the file name made a command`);
  }
}

for (const ci of [{ GITHUB_ACTIONS: 'true' }, { TF_BUILD: 'True', AGENT_TEMPDIRECTORY: tmpdir() }] as Record<
  string,
  string
>[]) {
  const name = Object.keys(ci)[0];
  test(`${name}: a pipeline file's name, file name, step names and types are inert in validate, plan, run and report`, async (t) => {
    const { dir, hostile, invalid } = files(t);
    const valid = await runCli(['validate', hostile], { env: ci });
    assert.equal(valid.code, 0, valid.stderr);
    assertInert('validate', valid);
    const refused = await runCli(['validate', invalid, hostile], { env: ci });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /unknown step type/);
    assertInert('validate (invalid)', refused);
    for (const args of [
      ['plan', hostile, '--emulator'],
      ['plan', hostile, '--emulator', '--live'],
      ['run', hostile, '--emulator', '--dry-run'],
    ]) {
      const r = await runCli(args, { env: ci });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assertInert(args.join(' '), r);
    }
    const journal = join(dir, 'run.journal.jsonl');
    const run = await runCli(['run', hostile, '--emulator', '--journal', journal], { env: ci });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /running "Release/);
    assertInert('run', run);
    const report = await runCli(['report', journal], { env: ci });
    assert.equal(report.code, 0, report.stderr);
    assertInert('report', report);
    const missing = await runCli(['run', join(dir, `missing-${FILE}`), '--emulator'], { env: ci });
    assert.equal(missing.code, 2);
    assertInert('run (no such file)', missing);
  });
}

test("the root action: a pipeline's name and step names are inert in a run, a dry run and the merge of its reports", async (t) => {
  const { url } = await startEmulator(t);
  const inputs = { pipeline: 'p.yml', url, username: 'admin', password: 'admin' };
  const run = await runActionBundle(t, { action: '.', files: { 'p.yml': HOSTILE }, inputs });
  assert.equal(run.code, 0, run.stdout.slice(-2000));
  assertInertLog('action run', run.stdout);
  const dry = await runActionBundle(t, {
    action: '.',
    files: { 'p.yml': HOSTILE },
    inputs: { ...inputs, 'dry-run': 'true' },
  });
  assert.equal(dry.code, 0, dry.stdout.slice(-2000));
  assert.match(dry.stdout, /dry run of "Release/);
  assertInertLog('action dry run', dry.stdout);
  const { dir, hostile } = files(t);
  const report = join(dir, 'site.json');
  const cli = await runCli(['run', hostile, '--emulator', '--report-json', report]);
  assert.equal(cli.code, 0, cli.stderr);
  const merge = await runActionBundle(t, {
    action: '.',
    files: { 'reports/site.json': readFileSync(report, 'utf8') },
    inputs: { merge: 'reports' },
  });
  assert.match(merge.stdout, /fleet "Release/);
  assertInertLog('action merge', merge.stdout);
});

test('report: the path of each file it writes is inert on GitHub', async (t) => {
  const { dir, hostile } = files(t);
  const journal = join(dir, 'run.journal.jsonl');
  const run = await runCli(['run', hostile, '--emulator', '--journal', journal]);
  assert.equal(run.code, 0, run.stderr);
  const r = await runCli(['report', journal, '--summary', join(dir, `summary-${FILE}.md`)], {
    env: { GITHUB_ACTIONS: 'true' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^report: .*summary-release$/m, 'the file written is named');
  assertInert('report', r);
});

test("matrix: a matrix value holding CI commands is printed as JSON escapes: the job matrix reads the value, Azure's log no command", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-pipeline-text-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const site =
    "a ##vso[task.setvariable variable=PWNED]1 ::warning::PWNED ##teamcity[buildStatus text='PWNED'] \u009b2J";
  const file = join(dir, 'm.yml');
  writeFileSync(
    file,
    `version: 1\nsteps:\n  - id: clear\n    uses: transaction-log/clear\n    matrix: { site: [${JSON.stringify(site)}, b] }\n`,
  );
  const r = await runCli(['matrix', file], { env: { TF_BUILD: 'True' } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { include: [{ site }, { site: 'b' }] }, 'the values as written');
  assertInertLog('matrix', r.stdout);
  assert.doesNotMatch(r.stdout, /##vso\[|##teamcity\[|::|\u009b/, 'no command Azure or TeamCity reads mid-line');
});
