// decide's evidence for a value waited on: a fresh plan --live of that value's steps, run through
// clients that send GET requests only: the emulator sees no write from decide.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

test('decide lists a fresh plan --live of the value waited on, read-only: the emulator sees no write from it', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide`);
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-002',
  });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  // Past the monitoring refresh after the update: the Engines report the version it installed.
  await f.clock.sleep(3 * 60_000, new AbortController().signal);
  const seen = new Map([...f.sites.started()].map(([name, site]) => [name, site.requests.length]));

  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /^ {2}plan --live of site-002 now \(GET requests only\):$/m);
  // The write is shown, not sent, with what the site shows now: the update the reset hid was applied.
  assert.match(listed.stdout, /^ {4}\[1\/2\] Update site-002 \(update\/system\) on server site-002$/m);
  assert.match(listed.stdout, /^ {8}now: not sent: a write; the Engines of PROD run 26\.11\.0 already/m);
  // The gate after it is read now.
  assert.match(
    listed.stdout,
    /^ {4}\[2\/2\] No critical alert at site-002[^\n]*\n(?: {8}[^\n]*\n)*? {8}now: [^\n]*holds/m,
  );
  assert.doesNotMatch(listed.stdout, /plan --live of site-00[13]/, 'only the value waited on');
  const during = [...f.sites.started()].flatMap(([name, site]) =>
    site.requests.slice(seen.get(name) ?? 0).map((r) => ({ name, ...r })),
  );
  assert.ok(during.length > 0, 'decide read the site');
  assert.deepEqual(
    during.filter((r) => r.method !== 'GET'),
    [],
    'decide sent GET requests only',
  );
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 });
});
