// Text enginectl did not write (a step's name from the pipeline file or a matrix value, the
// pipeline's name, a server's answer) shown by verify, runs and decide: a line break in it starts
// no line of its own that could pass for a verdict or a run entry; its further lines are indented
// under the first, as the run's log indents them. A rollout parked on a write in doubt, in a run
// store, through the CLI against the emulator.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
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
