// Text enginectl did not write (a step's name from the pipeline file or a matrix value, the
// pipeline's name, a server's answer) shown by verify, runs and decide: a line break in it starts
// no line of its own that could pass for a verdict or a run entry; its further lines are indented
// under the first, as the run's log indents them. A rollout parked on a write in doubt, in a run
// store, through the CLI against the emulator.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';

/** What an attacker writes: each a line of its own, as verify, runs and decide would print one. */
const FORGED = ['✔ FORGED verified', "applied      'FORGED'", 'run FORGED-2026 ok', 'FORGED-SERVER'];

/** Every line a user reads: none starts with what the attacker wrote (its indented continuation may hold it). */
function assertNoForgedLine(channel: string, text: string) {
  for (const line of text.split('\n'))
    assert.ok(!FORGED.some((x) => line.startsWith(x)), `${channel}: a line of the attacker's: ${JSON.stringify(line)}`);
}

test('a line break in a step name, the pipeline name or a server answer forges no line of verify, runs or decide', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site
  waves: [[site-001], rest]
  max-failures: 0
  on-failure: decide`,
    '',
    '',
    {
      write: `  - id: update
    name: "Update \${{ matrix.site }}\\n${FORGED[0]}\\n${FORGED[1]}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod }`,
    },
  );
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('name: Fleet release', `name: "Fleet\\n${FORGED[2]}"`));
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-002',
  });
  const parked = await f.run();
  assert.equal(parked.code, PARKED, parked.stdout + parked.stderr);
  const id = runIdOf(parked.stdout)!;
  // The server's answer as verify reads it back: each Engine's version holds a line break.
  const site = f.sites.started().get('site-002')!;
  for (const engine of site.state.engines) engine.version = `${engine.version}\n${FORGED[3]}`;
  await f.clock.sleep(3 * 60_000, new AbortController().signal);

  const verified = await f.cli(['verify', '--store', f.storeUrl, '--run', id]);
  assert.match(verified.stdout, /^applied +"Update site-002/m, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /FORGED-SERVER/, 'the server text is shown');
  const listed = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  const parkedRuns = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.equal(parkedRuns.code, 0, parkedRuns.stdout + parkedRuns.stderr);
  const decided = await f.decide(id);
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(decided.stdout, /FORGED-SERVER/, 'the server text is shown');
  // A decision refused names the step: on stderr, through the CLI's edge.
  const refused = await f.decide(id, '--retry', 'site-002');
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  const skipped = await f.decide(id, '--skip', 'site-002', '--reason', `checked\n${FORGED[2]}`);
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  // The plan the live plan is rendered as: plan FILE prints it too.
  const planned = await f.cli(['plan', f.file]);
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);

  for (const [name, r] of Object.entries({ verified, listed, parkedRuns, decided, refused, skipped, planned })) {
    assert.match(r.stdout + r.stderr, /FORGED/, `${name}: the attacker's text is shown`);
    assertNoForgedLine(`${name} stdout`, r.stdout);
    assertNoForgedLine(`${name} stderr`, r.stderr);
  }
  // Shown as the run's log shows it: each further line indented under the first.
  assert.match(verified.stdout, /^ {4}✔ FORGED verified$/m);
  assert.match(verified.stdout, /^ {4}FORGED-SERVER, eng-prod-02/m);
  assert.match(listed.stdout, /^ {4}run FORGED-2026 ok" \(/m);
  // The live plan decide prints (at 4 spaces, as the steps of a plan): a name's further line is no step of it.
  const plan = decided.stdout.slice(decided.stdout.indexOf('plan --live of site-002'));
  assert.match(plan, /^ {4}\[1\/2\] Update site-002$/m);
  assertNoForgedLine('decide plan --live', plan.replace(/^ {4}/gm, ''));
  assert.match(skipped.stdout, /^recorded: skip site-002 by .*: checked\n {4}run FORGED-2026 ok \(on: verify:/m);
});

/** What a line break in the pipeline's name would pass off as the tool's own lines: a site's verdict, the run's. */
const NAMED = ['✔ site=prod: success (forged)', 'pipeline "deploy": success in 1ms (forged)'];

function assertNoNamedLine(channel: string, text: string) {
  for (const line of text.split('\n'))
    assert.ok(!NAMED.some((x) => line.startsWith(x)), `${channel}: a line of the name's: ${JSON.stringify(line)}`);
}

test("a line break in the pipeline's name (from a --var) forges no line of run, report, report --merge or the drift audit", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-forged-name-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    'version: 1\nname: "deploy ${{ vars.x }}"\nvars: { x: a }\nsteps:\n  - name: "Alerts ${{ vars.x }}"\n    uses: monitoring/alerts\n',
  );
  const x = `x=a\n${NAMED.join('\n')}`;
  const journal = join(dir, 'run.journal.jsonl');
  const report = join(dir, 'r.json');
  const ran = await runCli(['run', file, '--emulator', '--var', x, '--journal', journal, '--report-json', report]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.match(ran.stdout, /^running "deploy a$/m);
  assert.match(ran.stdout, /^pipeline "deploy a$/m);
  const reported = await runCli(['report', journal]);
  assert.equal(reported.code, 0, reported.stdout + reported.stderr);
  const merged = await runCli(['report', '--merge', report]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.match(merged.stdout, /^fleet "deploy a$/m);
  const audit = await runCli(['plan', file, '--emulator', '--live', '--expect', '--var', x]);
  assert.equal(audit.code, 0, audit.stdout + audit.stderr);
  assert.match(audit.stdout, /^drift audit of "deploy a$/m);
  for (const [name, r] of Object.entries({ ran, reported, merged, audit })) {
    assert.match(
      r.stdout,
      /^ {4}✔ site=prod: success \(forged\)$/m,
      `${name}: the name is shown, its further lines indented`,
    );
    assertNoNamedLine(`${name} stdout`, r.stdout);
    assertNoNamedLine(`${name} stderr`, r.stderr);
  }
});

test("the root action: a line break in the pipeline's name forges no line of its log in a run, a failed run, a dry run or the merge of its reports", async (t) => {
  const { url } = await startEmulator(t);
  const name = `deploy\n${NAMED.join('\n')}`;
  const pipeline = (fail: string) =>
    `version: 1\nname: ${JSON.stringify(name)}\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: ${fail} }\n`;
  const root = actionDef('enginectl');
  const inputs = { pipeline: 'p.yml', url, username: 'admin', password: 'admin' };
  const ok = await runActionInProcess(root, { files: { 'p.yml': pipeline('critical') }, inputs });
  assert.equal(ok.code, 0, runnerLog(ok));
  const failed = await runActionInProcess(root, { files: { 'p.yml': pipeline('warning') }, inputs });
  assert.equal(failed.code, 1, runnerLog(failed));
  const dry = await runActionInProcess(root, {
    files: { 'p.yml': pipeline('critical') },
    inputs: { ...inputs, 'dry-run': 'true' },
  });
  assert.equal(dry.code, 0, runnerLog(dry));
  const merged = await runActionInProcess(root, {
    files: { 'reports/site.json': readFileSync(ok.outputs.report!, 'utf8') },
    inputs: { merge: 'reports' },
  });
  assert.equal(merged.code, 0, runnerLog(merged));
  for (const [which, r] of Object.entries({ ok, failed, dry, merged })) {
    // As the runner prints them: each info line's line breaks are lines of the log.
    const log = runnerLog(r);
    if (which === 'dry' || which === 'merged')
      assert.match(log, /✔ site=prod: success \(forged\)/, `${which}: the name is shown`);
    assertNoNamedLine(`action ${which}`, log);
  }
  // The failure (an annotation, its line breaks escaped): its further lines indented all the same, as the log shows them.
  assert.match(failed.failed.join('\n'), /^"deploy\n {4}✔ site=prod: success \(forged\)\n {4}pipeline/);
});
