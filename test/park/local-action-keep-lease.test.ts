// The action's journal input (resume) of a run parked with park: { keep-lease: true }: refused
// (RESUME_PARKED), and the fleet lease the park kept stays kept: another run of the fleet is
// refused, not let in while the run is parked.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { localAction } from '../helpers/local-action.ts';
import { parkFleet } from './helpers.ts';

test(
  "@github/local-action: input journal of a parked run that keeps its lease is refused, and the lease stays the parked run's",
  { timeout: 240_000 },
  async (t) => {
    const f = await parkFleet(
      t,
      3,
      `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
      'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }',
    );
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

    const resumed = await job({ journal: id });
    assert.match(
      resumed.out,
      /the run is parked at wave 1, .*input journal does not go around it/,
      resumed.out.slice(-3000),
    );
    // The way on in the action's inputs, not the CLI's flags.
    const hint = /hint: (.*)/.exec(resumed.out)?.[1] ?? '';
    assert.match(hint, /then go on with continue: ID \(with store:\)$/, resumed.out.slice(-3000));
    assert.doesNotMatch(hint, /--resume|--continue/);
    const other = await f.run();
    assert.equal(other.code, 2, `another run took the fleet lease the parked run kept\n${other.stdout}${other.stderr}`);
    assert.match(other.stderr, /lease fleet is held by/);
    assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
  },
);
