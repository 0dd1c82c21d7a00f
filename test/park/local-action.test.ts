// The docs' GitHub park flow under GitHub's own local runner of actions (@github/local-action): the
// root action with input store parks a rollout at its bake (the step not failed, outcome parked),
// an operator's decide --continue, then the action with input continue goes on; every write once.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { localAction } from '../helpers/local-action.ts';
import { parkFleet } from './helpers.ts';
import { runCli } from '../helpers/cli.ts';

test(
  '@github/local-action: the root action parks at the bake (outcome parked, not failed), decide --continue, input continue goes on',
  { timeout: 240_000 },
  async (t) => {
    const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
    const temp = join(f.dir, 'runner-temp');
    mkdirSync(temp);
    const job = (inputs: Record<string, string>) =>
      localAction('.', 'src/action/entries/main.ts', {
        ...f.env,
        INPUT_PIPELINE: 'fleet.yml',
        INPUT_STORE: f.storeUrl,
        'INPUT_DRY-RUN': 'false',
        INPUT_SUMMARY: 'true',
        'INPUT_PR-COMMENT': 'false',
        GITHUB_REPOSITORY: 'acme/erp',
        GITHUB_WORKSPACE: f.dir,
        RUNNER_TEMP: temp,
        ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      });
    const first = await job({});
    assert.equal(first.code, 0, first.out.slice(-3000));
    assert.match(first.out, /'outcome'\s*│\s*'parked'/);
    const id = /'run-id'\s*│\s*'(\S+)'/.exec(first.out)?.[1];
    assert.ok(id, first.out.slice(-3000));
    assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });

    const decided = await runCli(
      ['decide', '--store', f.storeUrl, '--run', id, '--continue', '--reason', 'canary looks fine'],
      {
        env: f.env,
      },
    );
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    const done = await job({ continue: id });
    assert.equal(done.code, 0, done.out.slice(-3000));
    assert.match(done.out, /'outcome'\s*│\s*'success'/);
    assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
  },
);
