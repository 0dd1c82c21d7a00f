// The root action resuming a rollout that halted: without continue-rollout it sends nothing and
// fails (RESUME_HALTED); with it, the halted wave's failed site runs again and the rollout goes on.
// Run in this process (runAction with a recording toolkit), each run on a runner of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFault, serve, siteUrl, Sites } from '../../src/emulator/index.ts';
import { actionDef } from '../../src/action/definitions.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Rollout from the action
servers:
${['a', 'b', 'c'].map((s) => `  site-${s}: { url: "\${{ env.URL_${s.toUpperCase()} }}", username: admin, password: "\${{ secrets.API_PASSWORD }}" }`).join('\n')}
rollout:
  over: site
  waves: [[site-a], rest]
steps:
  - name: "Clear the log at \${{ matrix.site }}"
    uses: transaction-log/clear
    matrix: { site: [site-a, site-b, site-c] }
    server: \${{ matrix.site }}
`;

test('root action: a halted rollout resumes only with continue-rollout', async (t) => {
  // site-a's first clear fails: wave 1 is over its budget of 0, and the rollout halts.
  const sites = new Sites({
    faults: [parseFault('POST /api/devops/v1/transaction-log/clear site=site-a status=409 times=1')],
  });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const env = {
    URL_A: siteUrl(running.url, 'site-a'),
    URL_B: siteUrl(running.url, 'site-b'),
    URL_C: siteUrl(running.url, 'site-c'),
    API_PASSWORD: 'admin',
  };
  const base = { files: { 'rollout.yml': PIPELINE }, env };
  const root = actionDef('enginectl');
  const clears = (site: string) => sites.site(site).count('POST', '/api/devops/v1/transaction-log/clear');

  const first = await runActionInProcess(root, { ...base, inputs: { pipeline: 'rollout.yml' } });
  assert.equal(first.code, 1, first.failed.join('\n'));
  // The halt, said as a warning of the run.
  assert.ok(
    first.warnings.some((w) => /the rollout halted at wave 1/.test(w.message)),
    JSON.stringify(first.warnings),
  );
  assert.deepEqual([clears('site-a'), clears('site-b'), clears('site-c')], [1, 0, 0]);
  const journal = first.outputs.journal!;

  const refused = await runActionInProcess(root, { ...base, inputs: { pipeline: 'rollout.yml', journal } });
  assert.equal(refused.code, 2, refused.failed.join('\n'));
  assert.match(
    refused.failed.join('\n'),
    /the rollout halted at wave 1 \(1 site\(s\) failed \(site-a\), over the budget of 0\); resuming goes on with the waves after it$/m,
  );
  // The way on in the action's inputs, not the CLI's flags.
  assert.match(refused.log.join('\n'), /hint: .*then resume with continue-rollout: true \(recorded in the journal/);
  assert.doesNotMatch(refused.log.join('\n') + refused.summary, /--continue-rollout/);
  assert.deepEqual([clears('site-a'), clears('site-b'), clears('site-c')], [1, 0, 0], 'nothing was sent');

  const going = await runActionInProcess(root, {
    ...base,
    inputs: { pipeline: 'rollout.yml', journal, 'continue-rollout': 'true' },
  });
  assert.equal(going.code, 0, going.failed.join('\n'));
  assert.deepEqual([clears('site-a'), clears('site-b'), clears('site-c')], [2, 1, 1]);
});
