// A parked run of a store whose journal is sealed (ENGINECTL_JOURNAL_KEY), decided on or continued
// from a shell without the key: refused before anything is recorded or sent, in words that name the
// stored run (`URL run ID`), never the copy a runner lays in TMPDIR, and say what was not done.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const KEY = 'the-key-that-sealed-it-0123456789';

test('a sealed parked run, decided on and continued without its key, is refused naming the stored run, nothing recorded or sent', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  on-failure: decide`);
  Object.assign(f.env, { ENGINECTL_JOURNAL_KEY: KEY });
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-001',
  });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const records = f.records(id).length;
  const applied = f.applied('/update/system'); // the canary's write, applied, its answer lost
  const keyless = { env: { PROD_TOKEN: 'prod-token' }, clock: f.clock };

  const decided = await runCli(
    ['decide', '--store', f.storeUrl, '--run', id, '--abort', '--reason', 'canary bad'],
    keyless,
  );
  assert.equal(decided.code, 2, decided.stderr);
  assert.match(
    decided.stderr,
    new RegExp(`${f.storeUrl.replace(/[/.]/g, '\\$&')} run ${id}: it is sealed with a key \\(ENGINECTL_JOURNAL_KEY\\)`),
  );
  assert.doesNotMatch(decided.stderr, /enginectl-[^ ]*\.journal\.jsonl/, 'the TMPDIR copy is named');
  assert.match(decided.stderr, /nothing was recorded/);
  assert.doesNotMatch(decided.stderr, /nothing was run/);

  const continued = await runCli(['run', f.file, '--store', f.storeUrl, '--continue', id], keyless);
  assert.equal(continued.code, 2, continued.stderr);
  assert.match(continued.stderr, new RegExp(` run ${id}: it is sealed with a key`));
  assert.doesNotMatch(continued.stderr, /enginectl-[^ ]*\.journal\.jsonl/, 'the TMPDIR copy is named');
  assert.equal(f.records(id).length, records, 'a record was added');
  assert.deepEqual(f.applied('/update/system'), applied, 'a write was sent');
});
