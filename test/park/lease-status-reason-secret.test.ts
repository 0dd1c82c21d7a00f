// lease release from a shell without the pipeline's secrets keeps its reason as given, said
// (reason-secrets.ts). lease status shows that reason: with the secrets set, it masks it as every
// other reader of an operator's kept words does, with the secrets of the pipeline the lease's
// holder ran (the file its journal names, as lease release finds it), their values from here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';
import { PARKED, parkFleet } from './helpers.ts';

const TOKEN = 'prod-token';

test("lease status masks a release's reason kept as given, with the secrets of the holder's pipeline this shell holds", async (t) => {
  const f = await parkFleet(
    t,
    3,
    '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }',
    'lease: { name: fleet-a, ttl: 1h }\npark: { keep-lease: true }',
  );
  const parked = await f.run();
  assert.equal(parked.code, PARKED, parked.stdout + parked.stderr);

  // The operator's shell: the store, no PROD_TOKEN. The release says the reason is kept as given.
  const released = await runCli(
    ['lease', 'release', '--store', f.storeUrl, 'fleet-a', '--reason', `lost, ${TOKEN} rotated`],
    { env: {}, clock: f.clock },
  );
  assert.equal(released.code, 0, released.stdout + released.stderr);
  assert.match(released.stderr, /secrets\.PROD_TOKEN is not set here/);

  const status = await runCli(['lease', 'status', '--store', f.storeUrl, 'fleet-a'], { env: f.env, clock: f.clock });
  assert.equal(status.code, 0, status.stdout + status.stderr);
  assert.match(status.stdout, /^lease fleet-a: free \(released .+ by .+: lost, \*\*\* rotated\)$/m);
  assertClean('lease status', status.stdout + status.stderr, [TOKEN]);

  // A shell without the secret shows the words as they were kept: it knows nothing to mask.
  const bare = await runCli(['lease', 'status', '--store', f.storeUrl, 'fleet-a'], { env: {}, clock: f.clock });
  assert.equal(bare.code, 0, bare.stdout + bare.stderr);
  assert.match(bare.stdout, /: lost, prod-token rotated\)$/m);
});
