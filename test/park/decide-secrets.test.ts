// decide only reads (GET): it asks the environment for the servers it reads back, as verify does,
// never for a target's token, which only a write carries. An operator decides from where the
// target tokens are not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

test("decide on a value in doubt without the target's token in the environment: listed and recorded on verify's reading; the live plan says what it lacks", async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site
  waves: [[site-001], rest]
  on-failure: decide`,
  );
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    site: 'site-001',
    reset: 'after',
    times: 1,
  });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;

  // The operator's shell: the store, no PROD_TOKEN (the servers' credentials are in the file).
  const decide = (...args: string[]) =>
    runCli(['decide', '--store', f.storeUrl, '--run', id, ...args], { env: {}, clock: f.clock });
  const listed = await decide();
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /verify: "Update site-001" .*: (applied|cannot-tell)/);
  assert.match(listed.stdout, /plan --live of site-001 now .*\n.*the live plan failed: .*PROD_TOKEN/);
  const skipped = await decide('--skip', 'site-001', '--reason', 'checked on the server');
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.match(skipped.stdout, /^recorded: skip site-001 by /m);
});
