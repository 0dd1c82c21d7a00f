// decide and verify --store read the leases that may hold a run (app/stored-run-held.ts): a damaged
// record (not a lease record of enginectl) of a lease that cannot hold the run is not read as a
// reason to refuse it, while one of a lease that can (the run's own `run.ID`, the fleet lease its
// journal names) still refuses (STORE_DAMAGED, exit 1: whether it holds the run cannot be told).
// A journal with no lease record (version 3) may have been held by a fleet lease of any name: every
// damaged lease refuses then. Before, one damaged record of any lease refused every run.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';

const FLEET = `  over: site
  waves: [[site-001], rest]
  max-failures: 0
  on-failure: decide`;

/** A 3-site rollout parked on site-002's update in doubt (applied), with the fleet lease `fleet` (a version 4 journal) or none. */
async function parked(t: TestContext, leased: boolean) {
  const f = await parkFleet(t, 3, FLEET, leased ? 'lease: { name: fleet, ttl: 10m }' : '');
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
  assert.equal(
    f.records(id).some((r) => r.t === 'lease'),
    leased,
    'the journal names its lease',
  );
  const store = f.storeUrl.slice('file://'.length);
  /** A record that is not enginectl's, the newest of lease `name`. */
  const damage = (name: string) => {
    mkdirSync(join(store, 'leases', name), { recursive: true });
    writeFileSync(join(store, 'leases', name, '00000099'), 'not json{');
  };
  const verify = () => f.cli(['verify', '--store', f.storeUrl, '--run', id]);
  return { f, id, damage, verify };
}

const DAMAGED = (name: string) =>
  new RegExp(`leases/${name.replaceAll('.', '\\.')}/00000099 is not a lease record of enginectl`);

test("a damaged record of a lease that cannot hold the run (another fleet's): decide and verify --store of a run whose journal names its lease read it as before", async (t) => {
  const { f, id, damage, verify } = await parked(t, true);
  damage('other-fleet');
  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /waiting for a decision on wave 2: site-002 failed/);
  const verified = await verify();
  assert.doesNotMatch(verified.stdout + verified.stderr, /STORE_DAMAGED|is not a lease record/);
  assert.match(verified.stdout, /^1 in doubt: /m, 'verify read the run and its call in doubt');
  const skipped = await f.decide(id, '--skip', 'site-002', '--reason', 'engines show the new version');
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 1, 'the decision recorded');
});

test("a damaged record of another sharded run's worker lease (RUN.shard-I of no shard of this run): decide and verify --store read the run as before", async (t) => {
  const { f, id, damage, verify } = await parked(t, true);
  damage('r-other-fleet.shard-0');
  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  const verified = await verify();
  assert.doesNotMatch(verified.stdout + verified.stderr, /STORE_DAMAGED|is not a lease record/);
  assert.match(verified.stdout, /^1 in doubt: /m, 'verify read the run and its call in doubt');
});

for (const lease of ['fleet', 'run.ID'])
  test(`a damaged record of a lease that can hold the run (${lease}): decide and verify --store refuse, STORE_DAMAGED, nothing recorded`, async (t) => {
    const { f, id, damage, verify } = await parked(t, true);
    const name = lease.replace('ID', id);
    damage(name);
    for (const r of [await f.decide(id, '--skip', 'site-002', '--reason', 'x'), await verify()]) {
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /STORE_DAMAGED/);
      assert.match(r.stderr, DAMAGED(name));
    }
    assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 0, 'nothing recorded');
  });

test('a journal with no lease record (version 3): a damaged record of any lease refuses, STORE_DAMAGED (a fleet lease of any name may hold it)', async (t) => {
  const { f, id, damage, verify } = await parked(t, false);
  damage('other-fleet');
  for (const r of [await f.decide(id), await verify()]) {
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /STORE_DAMAGED/);
  }
});
