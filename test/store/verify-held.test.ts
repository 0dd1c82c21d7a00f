// enginectl verify --store URL --run ID of a run a live runner still writes: its calls in flight
// are not in doubt (the runner waits for their answers), so verify refuses (JOURNAL_LOCKED, exit
// 2) and decides nothing, as verify of a JOURNAL file whose lock a live process holds does
// (test/faults/verify-lock.test.ts). What says the runner is alive is the lease it renews in the
// store. Each store kind verify reads: a directory (file:///...) and S3 on Ceph's RADOS Gateway
// (test/helpers/ceph.ts). The runner is the CLI's source as a process of its own, holding its
// fleet lease while its write hangs at the emulator (no answer until the test kills it); once it
// is killed its lease lapses unrenewed, and verify on a clock past that reads the run, saying so.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realClock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { cleanEnv, runCli } from '../helpers/cli.ts';
import { startCeph } from '../helpers/ceph.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';
import { shardFleet } from '../shard/helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const PATCH = '/api/classes/v1/classes/12/entities/2001';

const PIPELINE = `version: 1
name: Leased update
lease: { name: fleet, ttl: 10m }
steps:
  - id: upd
    uses: classes/update
    timeout: 10m
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`;

/** The CLI's source as a process: its output so far, and its end. */
function runner(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  let ended = false;
  const closed = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_code, signal) => ((ended = true), resolve(signal))),
  );
  return { child, closed, out: () => out, ended: () => ended };
}

const STORES = {
  directory: () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'enginectl-verify-held-')), 'store');
    mkdirSync(dir);
    return { url: pathToFileURL(dir).href, env: {} };
  },
  'S3 on RGW': () => ({ url: ceph.storeUrl(`verify-held-${Date.now()}`), env: ceph.env }),
};

for (const [kind, storeOf] of Object.entries(STORES))
  test(`verify --store --run of a run whose runner is alive (its lease renewed, its write in flight), ${kind}: refused, deciding nothing; once that runner is gone and its lease lapsed, verify reads the run, saying so`, async (t: TestContext) => {
    const { url, emulator } = await startEmulator(t);
    emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-held-'));
    const file = join(dir, 'upd.yml');
    writeFileSync(file, PIPELINE);
    const store = storeOf();
    const env = { ...store.env, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
    const run = runner(['run', file, '--store', store.url], env);
    t.after(() => void run.child.kill('SIGKILL'));
    const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === PATCH).length;
    await until(() => patches() === 1 || run.ended());
    assert.equal(run.ended(), false, `the run ended before its write reached the server: ${run.out()}`);
    const id = /^run: (\S+) in /m.exec(run.out())?.[1];
    assert.ok(id, run.out());

    // The runner is alive, its PATCH unanswered, its lease renewed: verify refuses and reads no target.
    const requests = emulator.requests.length;
    const live = await runCli(['verify', '--store', store.url, '--run', id], { env });
    assert.equal(live.code, 2, live.stdout + live.stderr);
    assert.match(
      live.stderr,
      new RegExp(
        `run ${id} is in use by run ${id} of .* on .*, whose lease fleet is renewed until \\S+: the run that writes it is still running`,
      ),
    );
    assert.match(live.stderr, /code: JOURNAL_LOCKED/);
    assert.match(live.stderr, /verify once that run has ended \(enginectl lease status --store URL fleet\)/);
    assert.equal(live.stdout, '', 'no verdict');
    assert.equal(emulator.requests.length, requests, 'nothing was read from the server');

    // The runner killed: nothing renews its lease. Its expiry passed on this clock less than its ttl
    // ago, the runner may be alive on a clock behind: refused, saying when.
    run.child.kill('SIGKILL');
    assert.equal(await run.closed, 'SIGKILL');
    const real = realClock();
    const lapsed = { now: () => real.now() + 11 * 60_000, sleep: real.sleep };
    const early = await runCli(['verify', '--store', store.url, '--run', id], { env, clock: lapsed });
    assert.equal(early.code, 2, early.stdout + early.stderr);
    assert.match(early.stderr, /its lease fleet lapsed at \S+ on this clock, less than its ttl \(10m\) ago/);
    assert.match(early.stderr, /verify again after \S+ on this clock/);
    assert.equal(emulator.requests.length, requests, 'nothing was read from the server');
    // A whole ttl past its expiry, verify reads the write it left in doubt.
    const later = { now: () => real.now() + 21 * 60_000, sleep: real.sleep };
    const stale = await runCli(['verify', '--store', store.url, '--run', id], { env, clock: later });
    assert.equal(stale.code, 1, stale.stdout + stale.stderr);
    assert.match(
      stale.stderr,
      new RegExp(`run ${id}: its lease fleet \\(run ${id} of .*\\) lapsed at \\S+ without a renewal`),
    );
    assert.match(
      stale.stdout,
      /^cannot-tell +"Update an entity" \(PATCH \/api\/classes\/v1\/classes\/12\/entities\/2001\): /m,
    );
  });

test('verify --store --run of a site of a sharded run whose worker is alive (its lease renewed, the site not ended), S3 on RGW: refused, naming the worker; once that worker is gone and its lease lapsed, verify reads the site, saying so', async (t) => {
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`verify-held-shard-${Date.now()}`), env: ceph.env },
  });
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', hang: true, site: 'site-0001', times: 1 });
  const { run } = await f.shard('--shards', '1');
  const worker = runner(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'], f.env);
  t.after(() => void worker.child.kill('SIGKILL'));
  const posts = () =>
    [...f.sites.started()].flatMap(([, s]) => s.requests).filter((r) => r.path.endsWith('/update/system')).length;
  await until(() => posts() === 1 || worker.ended());
  assert.equal(worker.ended(), false, `the worker ended before its write reached the site: ${worker.out()}`);
  // The site's run, as the merged report names it (runs --store lists the sharded run, not its sites' runs).
  const json = join(f.dir, 'merged.json');
  const merged = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
  });
  const sources = (JSON.parse(readFileSync(json, 'utf8')) as Report).merged?.reports.map((r) => r.source) ?? [];
  const site = sources.map((s) => /^site site-0001: run (\S+)$/.exec(s)?.[1]).find(Boolean);
  assert.ok(site, merged.stdout + merged.stderr + sources.join('\n'));

  const live = await runCli(['verify', '--store', f.storeUrl, '--run', site], { env: f.env });
  assert.equal(live.code, 2, live.stdout + live.stderr);
  assert.match(
    live.stderr,
    new RegExp(
      `run ${site} is in use by site site-0001 of sharded run ${run}, by shard 1/1 \\(run \\S+ of .*\\), whose lease ${run}\\.shard-0 is renewed until \\S+: the run that writes it is still running`,
    ),
  );
  assert.match(live.stderr, new RegExp(`enginectl report --merge --store URL --run ${run} shows it under way`));
  assert.equal(live.stdout, '', 'no verdict');
  assert.equal(posts(), 1);

  worker.child.kill('SIGKILL');
  assert.equal(await worker.closed, 'SIGKILL');
  const real = realClock();
  const later = { now: () => real.now() + 5 * 60_000, sleep: real.sleep };
  const stale = await runCli(['verify', '--store', f.storeUrl, '--run', site], { env: f.env, clock: later });
  assert.match(stale.stderr, new RegExp(`run ${site}: its lease ${run}\\.shard-0 \\(site site-0001 .*\\) lapsed at`));
  assert.match(stale.stdout, /^\S+ +"Update site-0001" \(POST \/api\/devops\/v1\/update\/system\): /m);
});
