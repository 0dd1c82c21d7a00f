// A record of the run store written by a newer enginectl than this one (a lease record, a sharded
// run's manifest, of a version above those this one reads: one job of a rollout on a newer
// enginectl than the next) is refused as that (STORE_VERSION, exit 2, nothing sent), naming its
// version and the ones this enginectl reads, with what to do: run every job of the store with
// that enginectl or a later one. Before, it was STORE_DAMAGED, "not a lease record of enginectl",
// whose hint said to remove the lease: a live lease a newer runner holds, removed, lets two runs
// send at once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';

async function fleet(t: Parameters<typeof startEmulator>[0]) {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-newer-records-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  return { dir, store, storeUrl: `file://${store}`, env };
}

test('a lease record of a newer version: run and lease status refuse it as that (STORE_VERSION, exit 2), never as damaged, never "remove the lease"', async (t) => {
  const { dir, store, storeUrl, env } = await fleet(t);
  const file = join(dir, 'leased.yml');
  writeFileSync(
    file,
    `version: 1
name: Leased release
lease: { name: prod-fleet, ttl: 10m, wait: 0s }
steps:
  - uses: monitoring/alerts
    with: { fail-on: none }
`,
  );
  const first = await runCli(['run', file, '--store', storeUrl], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  // A newer enginectl's runner took the lease since: its record, of lease record version 2.
  const leaseDir = join(store, 'leases', 'prod-fleet');
  const last = readdirSync(leaseDir)
    .filter((k) => /^[0-9]{8}$/.test(k))
    .sort()
    .at(-1)!;
  const record = JSON.parse(readFileSync(join(leaseDir, last), 'utf8')) as Record<string, unknown>;
  const next = String(Number(last) + 1).padStart(8, '0');
  const at = Date.now();
  writeFileSync(
    join(leaseDir, next),
    JSON.stringify({
      ...record,
      v: 2,
      kind: 'acquire',
      holder: { runId: 'newer-run', actor: 'ci', host: 'runner-9' },
      at,
      expiresAt: at + 600_000,
      fence: 'a field this enginectl does not know',
    }),
  );
  for (const args of [
    ['run', file, '--store', storeUrl],
    ['lease', 'status', '--store', storeUrl, 'prod-fleet'],
  ]) {
    const r = await runCli(args, { env });
    const said = r.stdout + r.stderr;
    assert.equal(r.code, 2, said);
    assert.match(said, /code: STORE_VERSION/, said);
    assert.match(
      said,
      new RegExp(
        `leases/prod-fleet/${next} is a lease record of version 2, written by a newer enginectl than this one \\(which reads version 1\\)`,
      ),
      said,
    );
    assert.match(said, /with that enginectl or a later one/, said);
    assert.doesNotMatch(said, /remove the lease|not a lease record|STORE_DAMAGED/, said);
  }
});

/** A sharded run planned into the store, its manifest rewritten by `rewrite` (what another enginectl might have written), and its worker run. */
async function shardedWith(t: TestContext, rewrite: (manifest: Record<string, unknown>) => Record<string, unknown>) {
  const { dir, store, storeUrl, env } = await fleet(t);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Sharded release
vars:
  sites: [a, b]
rollout:
  over: site
  waves: [rest]
steps:
  - id: clear
    name: "Clear at \${{ matrix.site }}"
    uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
`,
  );
  const planned = await runCli(['shard', file, '--store', storeUrl, '--shards', '1'], { env });
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  const run = /^run (\S+) in /m.exec(planned.stderr)![1]!;
  const path = join(store, 'shards', run, 'manifest');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify(rewrite(manifest)));
  const worker = await runCli(['run', file, '--store', storeUrl, '--run', run, '--shard', '1/1'], { env });
  return { store, run, worker };
}

test("a sharded run's manifest of a newer version: its worker refuses it as that (STORE_VERSION, exit 2), sending nothing", async (t) => {
  const { store, run, worker } = await shardedWith(t, (manifest) => ({
    ...manifest,
    v: 3,
    lanes: 'a field this enginectl does not know',
  }));
  const said = worker.stdout + worker.stderr;
  assert.equal(worker.code, 2, said);
  assert.match(said, /code: STORE_VERSION/, said);
  assert.match(
    said,
    new RegExp(
      `shards/${run}/manifest is a manifest of version 3, written by a newer enginectl than this one \\(which reads versions 1 and 2\\)`,
    ),
    said,
  );
  assert.doesNotMatch(said, /plan the rollout again|STORE_DAMAGED/, said);
  assert.equal(readdirSync(join(store, 'shards', run)).includes('waves'), false, 'no wave started');
});

test("decide and verify --store: a newer enginectl's lease record of a lease that cannot hold the run (another fleet's) is passed over, as a damaged one is; one of the run's own lease refuses (STORE_VERSION), nothing recorded", async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide`,
    'lease: { name: fleet, ttl: 10m }',
  );
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
  const store = f.storeUrl.slice('file://'.length);
  const newer = (name: string) => {
    mkdirSync(join(store, 'leases', name), { recursive: true });
    const at = Date.now();
    writeFileSync(
      join(store, 'leases', name, '00000099'),
      JSON.stringify({
        v: 2,
        kind: 'acquire',
        holder: { runId: 'newer', actor: 'ci', host: 'h' },
        at,
        expiresAt: at + 600_000,
      }),
    );
  };
  newer('other-fleet');
  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  const verified = await f.cli(['verify', '--store', f.storeUrl, '--run', id]);
  assert.doesNotMatch(verified.stdout + verified.stderr, /STORE_VERSION|STORE_DAMAGED/);
  assert.match(verified.stdout, /^1 in doubt: /m);
  newer(`run.${id}`);
  const refused = await f.decide(id, '--skip', 'site-002', '--reason', 'x');
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /is a lease record of version 2, written by a newer enginectl/);
  assert.match(refused.stderr, /code: STORE_VERSION/);
  assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 0, 'nothing recorded');
});

test("a sharded run's manifest whose pipeline hash is of another algorithm (another enginectl's): its worker says so (STORE_VERSION, exit 2), not that the pipeline differs", async (t) => {
  const { store, run, worker } = await shardedWith(t, (manifest) => ({
    ...manifest,
    sha256: `sha512:${'ab'.repeat(64)}`,
  }));
  const said = worker.stdout + worker.stderr;
  assert.equal(worker.code, 2, said);
  assert.match(said, /code: STORE_VERSION/, said);
  assert.match(
    said,
    new RegExp(
      `run ${run}'s manifest hashes the pipeline's files with sha512, this enginectl with sha256: another enginectl version wrote it`,
    ),
    said,
  );
  assert.doesNotMatch(said, /sharded from another pipeline/, said);
  assert.equal(readdirSync(join(store, 'shards', run)).includes('waves'), false, 'no wave started');
});
