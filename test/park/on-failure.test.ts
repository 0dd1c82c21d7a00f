// Where `on-failure: decide` is said: per step, per rollout, or as the pipeline's default; a rollout
// with no on-failure of its own takes the pipeline's. A step outside any rollout has no wave to
// park: its on-failure is refused at validation, at its line, saying what to do.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';

test("the pipeline's on-failure: decide is the default of a rollout without its own: a failed value parks the run; the rollout's own halt wins", async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]`, 'on-failure: decide');
  f.sites.faults.add({ method: 'POST', path: UPDATE, status: 500, times: 1, site: 'site-002' });
  const parked = await f.run();
  assert.equal(parked.code, PARKED, parked.stdout + parked.stderr);
  assert.match(parked.stdout, /^parked: waiting for a decision on wave 2: site-002 failed$/m);
  const id = runIdOf(parked.stdout)!;
  const retry = await f.decide(id, '--retry', 'site-002', '--accept-cannot-tell', '--reason', 'not updated: checked');
  assert.equal(retry.code, 0, retry.stdout + retry.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });

  const own = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  on-failure: halt`,
    'on-failure: decide',
  );
  own.sites.faults.add({ method: 'POST', path: UPDATE, status: 500, times: 1, site: 'site-002' });
  const halted = await own.run();
  assert.equal(halted.code, 1, halted.stdout + halted.stderr);
  assert.equal(halted.report!.parked, null);
  assert.equal(halted.report!.rollout!.halted?.wave, 2);
});

test('on-failure on a step outside any rollout is refused at its line, saying what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-on-failure-'));
  const lone = join(dir, 'lone.yml');
  writeFileSync(
    lone,
    `version: 1
name: No rollout
steps:
  - id: clear
    uses: transaction-log/clear
    on-failure: decide
`,
  );
  const r = await runCli(['validate', lone]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /lone\.yml:6:17 on-failure: decide on step "clear", which no rollout splits: only a wave of a rollout parks for a decision\n[\s\S]*?hint: drop on-failure here, or add a rollout: over a matrix key of this step/,
  );

  const outside = join(dir, 'outside.yml');
  writeFileSync(
    outside,
    `version: 1
name: A step beside the rollout
vars:
  sites: [a, b]
servers:
  a: { url: "http://127.0.0.1:1/a" }
  b: { url: "http://127.0.0.1:1/b" }
rollout:
  over: site
  waves: [[a], rest]
steps:
  - id: update
    uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
  - id: after
    uses: transaction-log/clear
    server: a
    on-failure: decide
`,
  );
  const o = await runCli(['validate', outside]);
  assert.equal(o.code, 2, o.stdout + o.stderr);
  assert.match(
    o.stderr,
    /outside\.yml:19:17 on-failure: decide on step "after", which no rollout splits: only a wave of a rollout parks for a decision\n[\s\S]*?hint: give it a matrix over site \(the rollout's key\), or drop on-failure here/,
  );
});
