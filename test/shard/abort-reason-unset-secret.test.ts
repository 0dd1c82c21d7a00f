// The operator's abort of a sharded run and lease release, from a shell without the pipeline's
// secrets: a reason that holds one of their values cannot be masked there. Each says so, naming
// them (never their values); report --merge --store and lease status, with them set, mask the
// reasons kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';
import { shardFleet } from './helpers.ts';

const TOKEN = 'prod-token';
const UNSET = (what: string) =>
  new RegExp(
    `^enginectl: warning: .*secrets\\.PROD_TOKEN, secrets\\.SITE_USER are not set here: a value of one of them in the reason is recorded as given; ${what} from a shell with them set`,
    'm',
  );

test("decide --abort of a sharded run and lease release from a shell without the pipeline's secrets: each names them in a warning; report --merge --store masks the reason kept", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1')).run;

  // A worker's lease its runner lost: released by an operator who holds no secret.
  const store = new DirectoryStore(f.storeUrl);
  await acquireLease(store, `${run}.shard-0`, {
    holder: { runId: run, actor: 'night-job', host: 'runner-7' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const released = await runCli(
    ['lease', 'release', '--store', f.storeUrl, `${run}.shard-0`, '--reason', `runner lost, ${TOKEN} rotated`],
    { env: {} },
  );
  assert.equal(released.code, 0, released.stdout + released.stderr);
  assert.match(released.stderr, UNSET('release'));

  const aborted = await runCli(['decide', '--store', f.storeUrl, '--run', run, '--abort', '--reason', `bad ${TOKEN}`], {
    env: {},
  });
  assert.equal(aborted.code, 0, aborted.stdout + aborted.stderr);
  assert.match(aborted.stderr, UNSET('decide'));

  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.match(merged.report?.rollout?.halted?.reason ?? '', /^aborted by the operator \(.+\): bad \*\*\*$/);
  assertClean('report --merge --store', merged.stdout + merged.stderr + JSON.stringify(merged.report), [TOKEN]);
  const status = await f.cli(['lease', 'status', '--store', f.storeUrl, `${run}.shard-0`]);
  assert.match(status.stdout, /: runner lost, \*\*\* rotated\)$/m);
  assertClean('lease status', status.stdout + status.stderr, [TOKEN]);
  const listed = await f.cli(['runs', '--store', f.storeUrl]);
  assertClean('runs', listed.stdout + listed.stderr, [TOKEN]);
});
