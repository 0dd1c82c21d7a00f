// One workflow run plans a sharded rollout per GitHub environment (a matrix of plan jobs,
// `environment: ${{ matrix.env }}`), each environment's fleet reached at its own base URL, a secret
// (url: "${{ secrets.FLEET_URL }}/sites/..."). The file, its --var values and its site names are
// the same; only the secret differs. shard keys the run it plans by the CI run, the file and the
// --var values (masked): the second environment's plan job is told the first's run was "planned by
// an earlier attempt", its workers find every site ended and exit 0, and the merged report says
// success, while no write ever reached the second environment. Now the second plan is refused
// (exit 2, nothing sent): with ENGINECTL_JOURNAL_KEY, the run's manifest keeps keyed fingerprints
// of the servers' secret URLs and they differ; without it, nothing tells the two apart. Each
// environment's plan under its own --run-key rolls its own fleet out.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { serve, Sites } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

const SITES = ['site-0001', 'site-0002'];
const PIPELINE = `version: 1
name: Fleet release
vars:
  sites: [${SITES.join(', ')}]
servers:
${SITES.map((s) => `  ${s}: { url: "\${{ secrets.FLEET_URL }}/sites/${s}", username: admin, password: admin }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
rollout:
  over: site
  waves: [rest]
steps:
  - id: update
    name: "Update \${{ matrix.site }}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod }
`;

const KEY = '5f0c1d9e8a7b6c5d4e3f2a1b0c9d8e7f';

/** Two environments' fleets (staging, production), each an emulator at a URL of its own, and the shard jobs of one workflow run against them. */
async function twoEnvironments(t: TestContext, journalKey: string | undefined) {
  const fleets = await Promise.all(
    ['staging', 'production'].map(async () => {
      const sites = new Sites({ monitoringRefreshMs: 0 });
      const running = await serve(sites, { port: 0 });
      t.after(() => running.close());
      return { sites, url: running.url };
    }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-shard-envs-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const storeUrl = `file://${store}`;
  const github = {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/fleet',
    GITHUB_RUN_ID: '9301',
    GITHUB_RUN_ATTEMPT: '1',
  };
  const envOf = (i: number) => ({
    ...github,
    PROD_TOKEN: 'prod-token',
    FLEET_URL: fleets[i]!.url,
    ...(journalKey === undefined ? {} : { ENGINECTL_JOURNAL_KEY: journalKey }),
  });
  const updates = (i: number) =>
    [...fleets[i]!.sites.started()].reduce(
      (n, [, site]) => n + site.requests.filter((r) => r.applied && r.path.endsWith('/update/system')).length,
      0,
    );
  const work = (i: number, run: string) =>
    runCli(['run', file, '--store', storeUrl, '--run', run, '--shard', '1/1'], { env: envOf(i) });
  const rollOut = async (i: number, extra: string[] = []) => {
    const plan = await runCli(['shard', file, '--store', storeUrl, '--shards', '1', ...extra], { env: envOf(i) });
    const run = /^run (\S+) in /m.exec(plan.stderr)?.[1];
    if (plan.code !== 0 || !run) return { plan, refused: true as const };
    const worker = await work(i, run);
    const merged = await runCli(['report', '--merge', '--store', storeUrl, '--run', run], { env: envOf(i) });
    return { plan, run, worker, merged, refused: false as const };
  };
  const plan = async (i: number, key: string) => {
    const r = await runCli(['shard', file, '--store', storeUrl, '--shards', '1', '--run-key', key], {
      env: envOf(i),
    });
    return { ...r, run: /^run (\S+) in /m.exec(r.stderr)?.[1] };
  };
  return { rollOut, work, updates, plan };
}

test("two plan jobs of one workflow run, one per GitHub environment (the fleet's URL a secret of each), with ENGINECTL_JOURNAL_KEY: the second environment's plan is refused, naming its sites and --run-key, never reported a success it was not sent", async (t) => {
  const { rollOut, updates } = await twoEnvironments(t, KEY);
  const staging = await rollOut(0);
  assert.equal(staging.refused, false);
  assert.equal(updates(0), 2, 'staging: each site updated once');

  const production = await rollOut(1);
  if (!production.refused) {
    const said = `${production.plan.stderr}\n${production.worker.stdout}${production.worker.stderr}\n${production.merged.stdout}${production.merged.stderr}`;
    assert.fail(
      `production: planned as run ${production.run}, ${updates(1)} update(s) sent, the worker exited ${production.worker.code} and the merged report ${production.merged.code}:\n${said}`,
    );
  }
  assert.equal(production.plan.code, 2, production.plan.stderr);
  assert.match(production.plan.stderr, /SHARD_REFUSED/);
  assert.match(production.plan.stderr, /site-0001, site-0002/);
  assert.match(production.plan.stderr, /--run-key/);
  assert.doesNotMatch(production.plan.stderr, /127\.0\.0\.1|localhost/, 'no URL of a secret shown');
  assert.equal(updates(1), 0, 'production: nothing sent');
});

test('the same without ENGINECTL_JOURNAL_KEY: the second plan cannot tell the servers apart and is refused, pointing to the key and to --run-key', async (t) => {
  const { rollOut, updates } = await twoEnvironments(t, undefined);
  const staging = await rollOut(0);
  assert.equal(staging.refused, false);
  assert.equal(updates(0), 2);
  const production = await rollOut(1);
  assert.equal(production.refused, true, "the second environment adopted the first one's run");
  assert.equal(production.plan.code, 2, production.plan.stderr);
  assert.match(production.plan.stderr, /ENGINECTL_JOURNAL_KEY/);
  assert.match(production.plan.stderr, /--run-key/);
  assert.equal(updates(1), 0);
});

test('each environment planned under a --run-key of its own: each fleet is rolled out', async (t) => {
  const { rollOut, updates } = await twoEnvironments(t, KEY);
  for (const [i, env] of ['staging', 'production'].entries()) {
    const done = await rollOut(i, ['--run-key', `9301-${env}`]);
    assert.equal(done.refused, false, done.plan.stderr);
    assert.equal(done.worker?.code, 0, `${done.worker?.stdout}${done.worker?.stderr}`);
    assert.equal(updates(i), 2, `${env}: each site updated once`);
  }
});

test("a worker given another environment's run (its fleet's URL another secret value) is refused before any write", async (t) => {
  const { rollOut, work, updates } = await twoEnvironments(t, KEY);
  const staging = await rollOut(0);
  assert.equal(staging.refused, false);
  const worker = await work(1, staging.run!);
  assert.equal(worker.code, 2, `${worker.stdout}${worker.stderr}`);
  assert.match(worker.stderr, /SHARD_REFUSED/);
  assert.match(worker.stderr, /site-0001, site-0002/);
  assert.equal(updates(1), 0);
});

test("a re-run of the same environment's plan (same secret, same key) prints its run again, nothing new planned", async (t) => {
  const { rollOut, updates } = await twoEnvironments(t, KEY);
  const first = await rollOut(0);
  assert.equal(first.refused, false);
  const again = await rollOut(0);
  assert.equal(again.refused, false, again.plan.stderr);
  assert.equal(again.run, first.run);
  assert.match(again.plan.stderr, /planned by an earlier attempt/);
  assert.equal(updates(0), 2, 'each site updated once, not again');
});

test("two environments' plans at once, each under a --run-key of its own (the first's run not ended), with ENGINECTL_JOURNAL_KEY: the second is planned beside the first, each fleet rolled out; without the key it stands aside", async (t) => {
  const { plan, work, updates } = await twoEnvironments(t, KEY);
  const staging = await plan(0, '9301-staging');
  assert.equal(staging.code, 0, staging.stderr);
  // Planned before the staging workers ran: its fleet is another (its servers' fingerprints), not one rollout beside another.
  const production = await plan(1, '9301-production');
  assert.equal(production.code, 0, production.stderr);
  assert.notEqual(production.run, staging.run);
  for (const [i, run] of [staging.run!, production.run!].entries()) {
    const worker = await work(i, run);
    assert.equal(worker.code, 0, worker.stdout + worker.stderr);
    assert.equal(updates(i), 2);
  }

  const untold = await twoEnvironments(t, undefined);
  assert.equal((await untold.plan(0, '9301-staging')).code, 0);
  const aside = await untold.plan(1, '9301-production');
  assert.equal(aside.code, 2, aside.stderr);
  assert.match(aside.stderr, /has not ended/);
  assert.equal(untold.updates(1), 0);
});
