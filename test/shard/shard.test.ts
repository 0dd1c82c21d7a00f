// A sharded run through the CLI: enginectl shard writes the manifest and prints the fan-out; the
// workers (run --shard I/N) share the run store, keep the waves and one failure budget, and
// report --merge --store --run gives one result naming every site.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { analysisClock, passwordOf, retryingUpdate, shardFleet, waveLog, workerProcess } from './helpers.ts';
import { shardOf as shardOfSite } from '../../src/shard/manifest.ts';
import { realClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { readManifestFile } from './manifest-file.ts';

test('two static shards of a 12-site rollout in 3 waves: every site once, the merged report names all', async (t) => {
  const f = await shardFleet(t, 12, '  over: site\n  waves: [[site-0001], 3, rest]\n  max-failures: 0');
  const planned = await f.shard('--shards', '2');
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  const run = planned.run!;
  assert.match(planned.stdout, new RegExp(`--run ${run} --shard 1/2$`, 'm'));
  const [a, b] = await Promise.all([f.worker(run, '1/2'), f.worker(run, '2/2')]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const counts = f.applied('/update/system');
  assert.equal(Object.keys(counts).length, 12);
  assert.ok(
    Object.values(counts).every((c) => c === 1),
    JSON.stringify(counts),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  // The store is probed once by each process that writes to it (the plan, each worker), not once per site.
  assert.equal(readdirSync(join(f.store, 'probes')).length, 3, 'probe keys');
  // Each site's local copy of its journal is gone once the store holds it all: none left in the temporary directory.
  const siteRuns = readdirSync(join(f.store, 'runs'));
  assert.equal(siteRuns.length, 12);
  const left = readdirSync(tmpdir()).filter((name) => siteRuns.some((id) => name.startsWith(`enginectl-${id}`)));
  assert.deepEqual(left, []);
});

test('queue mode, a failure budget of 1 in wave 2: once two sites failed no site of the wave starts anywhere; every worker exits 1; the merged report fails, saying where the rollout halted and why, naming the sites not started', async (t) => {
  const f = await shardFleet(t, 16, '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 1');
  for (const site of ['site-0003', 'site-0004'])
    f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site });
  const planned = await f.shard('--shards', '3', '--assign', 'queue');
  assert.equal(planned.code, 0, planned.stderr);
  const run = planned.run!;
  const workers = await Promise.all(['1/3', '2/3', '3/3'].map((s) => f.worker(run, s)));
  for (const w of workers) assert.equal(w.code, 1, w.stdout + w.stderr);
  assert.match(
    workers.map((w) => w.stdout).join('\n'),
    /the rollout halted at wave 2: 2 site\(s\) failed \(site-0003, site-0004\), over the budget of 1/,
  );
  // The wave's log: no start after the failure that spent the budget.
  const log = waveLog(f.store, run, 2);
  const spentAt = log.findIndex(
    (e, i) =>
      e.kind === 'ended' &&
      e.outcome === 'failure' &&
      log.slice(0, i + 1).filter((x) => x.kind === 'ended' && x.outcome === 'failure').length === 2,
  );
  assert.ok(spentAt > 0);
  assert.deepEqual(
    log.slice(spentAt + 1).filter((e) => e.kind === 'start'),
    [],
  );
  const started = new Set([...waveLog(f.store, run, 1), ...log].filter((e) => e.kind === 'start').map((e) => e.site));
  const applied = f.applied('/update/system');
  for (const site of f.names)
    assert.equal(applied[site] ?? 0, started.has(site) && !['site-0003', 'site-0004'].includes(site) ? 1 : 0, site);
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  const notStarted = f.names.filter((s) => !started.has(s));
  // Where the rollout halted and why, from the wave's verdict; the sites it left are not "no report" (no job died).
  assert.match(
    merged.stdout,
    /^✖ the rollout halted at wave 2: 2 site\(s\) failed \(site-0003, site-0004\), over the budget of 1; nothing is undone/m,
  );
  for (const s of notStarted) {
    assert.match(merged.stdout, new RegExp(`not started: .*\\b${s}\\b`));
    assert.doesNotMatch(merged.stdout, new RegExp(`✖ site=${s}: no report`));
  }
  assert.equal(merged.report?.rollout?.halted?.wave, 2);
  assert.match(
    merged.report?.rollout?.halted?.reason ?? '',
    new RegExp(`^2 site\\(s\\) failed \\(site-0003, site-0004\\), over the budget of 1$`),
  );
  // Each site the halt left is listed as one process lists it: its steps not started, and why.
  for (const site of notStarted)
    assert.deepEqual(
      merged.report?.steps
        .filter((s) => s.matrix?.site === site)
        .map((s) => [s.id, s.outcome, s.wave, s.error?.code, s.error?.message]),
      ['update', 'alerts'].map((id) => [
        id,
        'cancelled',
        2,
        'ROLLOUT_HALTED',
        'not started: wave 2 had 2 failed site(s), over its budget of 1',
      ]),
      site,
    );
  assert.deepEqual(
    merged.report?.rollout?.waves.map((w) => w.outcome),
    ['done', 'halted'],
  );
});

test('a worker refuses another pipeline, an index out of range, and --shard auto without an index; GitLab parallel: gives it its index', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  // The plan's own bad input says what to give.
  const tooMany = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '100001']);
  assert.equal(tooMany.code, 2);
  assert.match(tooMany.stderr, /--shards 100001: give how many workers, 1 to 100,000/);
  // Digits only, as --shard I/N reads them: not a number JavaScript would read (1e2, 0x10, " 2").
  for (const odd of ['1e2', '0x10', ' 2']) {
    const read = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', odd]);
    assert.equal(read.code, 2, `${JSON.stringify(odd)}: ${read.stdout}${read.stderr}`);
    assert.match(read.stderr, /: give how many workers, 1 to 100,000/);
  }
  const bogus = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--assign', 'bogus']);
  assert.equal(bogus.code, 2);
  assert.match(bogus.stderr, /--assign bogus: static or queue\n.*static \(the default\)/);
  const run = (await f.shard('--shards', '2')).run!;
  const out = await f.worker(run, '3/2');
  assert.equal(out.code, 2);
  assert.match(out.stderr, /SHARD_REFUSED|--shard 3\/2: give I\/N with 1 <= I <= N/);
  const wrongTotal = await f.worker(run, '1/3');
  assert.equal(wrongTotal.code, 2);
  assert.match(wrongTotal.stderr, /run \S+ has 2 shards, this worker was told 3/);
  const other = await f.cli([
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    '1/2',
    '--var',
    'sites=[site-0001]',
  ]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /was sharded from another pipeline/);
  const auto = await f.worker(run, 'auto');
  assert.equal(auto.code, 2);
  assert.match(auto.stderr, /--shard auto: no index in the environment/);
  // Two engines' indexes at once (GitLab's and a Kubernetes Indexed Job's): neither is guessed.
  const both = await runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', 'auto'], {
    env: { ...f.env, GITLAB_CI: 'true', CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2', JOB_COMPLETION_INDEX: '1' },
  });
  assert.equal(both.code, 2, both.stdout + both.stderr);
  assert.match(
    both.stderr,
    /--shard auto: two indexes in the environment, CI_NODE_INDEX=1 CI_NODE_TOTAL=2 and JOB_COMPLETION_INDEX=1; which is this worker's is not guessed/,
  );
  // A worker's sites are the manifest's, and a site taken over is decided by verify: options that would say otherwise are refused.
  for (const [option, value, why] of [
    ['--only', 'site=site-0001', /--shard and --only do not go together: a shard's sites are the manifest's/],
    ['--skip', 'site=site-0001', /--shard and --skip do not go together: a shard's sites are the manifest's/],
    [
      '--in-doubt',
      'skip',
      /--shard and --in-doubt do not go together: a site a worker takes over is decided by verify/,
    ],
  ] as const) {
    // Refused before the pipeline is loaded: a secret missing too, the refusal is what is said.
    const refused = await runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/2', option, value],
      {
        env: Object.fromEntries(Object.entries(f.env).filter(([k]) => k !== 'PROD_TOKEN')),
      },
    );
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, why);
  }
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
  const gitlab = await Promise.all(
    ['1', '2'].map((i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', 'auto'], {
        env: { ...f.env, GITLAB_CI: 'true', CI_NODE_INDEX: i, CI_NODE_TOTAL: '2' },
      }),
    ),
  );
  for (const g of gitlab) assert.equal(g.code, 0, g.stdout + g.stderr);
  assert.match(gitlab[0]!.stdout, /^shard 1\/2 of run \S+: owns \d+ site\(s\)/m);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1]);
});

test('a worker or a merge given what is not a run id (a path, or empty: ENGINECTL_RUN unset) refuses it as invalid input (exit 2), never as a store failure to run again (69)', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  for (const id of ['../x', '', 'x\\y']) {
    const worker = await f.cli(['run', f.file, '--store', f.storeUrl, '--run', id, '--shard', '1/2']);
    assert.equal(worker.code, 2, `${JSON.stringify(id)}: ${worker.stdout}${worker.stderr}`);
    assert.match(worker.stderr, /--run .*: not a run id/);
    const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', id]);
    assert.equal(merged.code, 2, `${JSON.stringify(id)}: ${merged.stdout}${merged.stderr}`);
    assert.match(merged.stderr, /--run .*: not a run id/);
  }
  assert.equal([...f.sites.started()].length, 0, 'no site was called');
});

test("a worker takes --override-freeze --reason as a run does (each site's write let through its freeze, recorded), and refuses --webhook and --dotenv, whose result is the merged report's", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      'rollout:\n',
      'freezes:\n  all-year:\n    zone: UTC\n    dates: [{ from: 2000-01-01, to: 2999-12-31 }]\noverride-freeze: [alice]\nrollout:\n',
    ),
  );
  f.env.USER = 'alice';
  const run = (await f.shard('--shards', '1')).run;
  for (const [flag, value] of [
    ['--webhook', 'http://127.0.0.1:9/hook'],
    ['--dotenv', join(f.dir, 'out.env')],
  ] as const) {
    const refused = await f.worker(run, '1/1', flag, value);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(`--shard and ${flag} do not go together: .*report --merge --store URL --run ID`),
    );
  }
  const worker = await f.worker(run, '1/1', '--override-freeze', '--reason', 'INC-42 hotfix');
  assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const updates = merged.report!.steps.filter((s) => s.id === 'update');
  assert.equal(updates.length, 2);
  for (const u of updates) assert.deepEqual(u.window?.override, { by: 'alice', reason: 'INC-42 hotfix', as: 'alice' });
});

test('a manifest changed in the store (its waves merged, its budget raised) is refused by every worker: nothing is sent; the one shard planned goes on', async (t) => {
  const f = await shardFleet(t, 6, '  over: site\n  waves: [2, rest]\n  max-failures: 0');
  const run = (await f.shard('--shards', '2')).run!;
  const path = join(f.store, 'shards', run, 'manifest');
  const planned = readFileSync(path, 'utf8');
  const manifest = readManifestFile(f.store, run);
  for (const changed of [
    { ...manifest, waves: [manifest.waves.flat()], budgets: [5] },
    { ...manifest, budgets: manifest.budgets.map(() => 5) },
    { ...manifest, parallel: 8 },
  ]) {
    writeFileSync(path, JSON.stringify(changed));
    // Not refused, it would wait at the barrier for the other shard: it parks instead.
    const worker = await f.worker(run, '1/2', '--shard-wait', '1s');
    assert.equal(worker.code, 2, worker.stdout + worker.stderr);
    assert.match(worker.stderr, /SHARD_REFUSED|is not the one enginectl shard planned/);
    assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
  }
  writeFileSync(path, planned);
  const both = await Promise.all([f.worker(run, '1/2'), f.worker(run, '2/2')]);
  for (const w of both) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1, 1, 1]);
});

test('a manifest cut short in the store fails a worker STORE_DAMAGED (exit 1: running the index again reads it the same), nothing sent', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '2')).run!;
  const path = join(f.store, 'shards', run, 'manifest');
  writeFileSync(path, readFileSync(path, 'utf8').slice(0, 40));
  const worker = await f.worker(run, '1/2', '--shard-wait', '1s');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.match(worker.stderr, /STORE_DAMAGED|is not a manifest of enginectl/);
  assert.doesNotMatch(worker.stderr, /run the same index again/);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
});

test("a rollout with on-failure: decide (the rollout's or a step's) is refused by shard and by a worker, naming where: a sharded run does not park for decisions", async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '2')).run!;
  const text = readFileSync(f.file, 'utf8');
  for (const [changed, where] of [
    [
      text.replace('  waves: [rest]', '  waves: [rest]\n  on-failure: decide'),
      /the rollout's on-failure \(or the pipeline's\) is decide/,
    ],
    // The rollout's parks a wave past its budget even when every step says halt.
    [
      text
        .replace('  waves: [rest]', '  waves: [rest]\n  on-failure: decide')
        .replaceAll('    uses: update/system', '    uses: update/system\n    on-failure: halt')
        .replaceAll('    uses: monitoring/alerts', '    uses: monitoring/alerts\n    on-failure: halt'),
      /the rollout's on-failure \(or the pipeline's\) is decide/,
    ],
    [
      text.replace('    uses: update/system', '    uses: update/system\n    on-failure: decide'),
      /:\d+:\d+: step update has on-failure: decide/,
    ],
  ] as const) {
    writeFileSync(f.file, changed);
    const planned = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
    assert.equal(planned.code, 2, planned.stdout + planned.stderr);
    assert.match(planned.stderr, where);
    assert.match(planned.stderr, /a sharded run does not park for decisions/);
    const worker = await f.worker(run, '1/2', '--shard-wait', '1s');
    assert.equal(worker.code, 2, worker.stdout + worker.stderr);
    assert.match(worker.stderr, where);
  }
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
  assert.deepEqual(readdirSync(join(f.store, 'shards')), [run], 'no other run planned');
});

test('a worker waiting at a barrier past --shard-wait parks (exit 75); the same command later goes on; wave 2 starts only after wave 1 ended everywhere; its report says it parked, and why', async (t) => {
  const f = await shardFleet(t, 6, '  over: site\n  waves: [[site-0001, site-0002], rest]');
  const run = (await f.shard('--shards', '2')).run!;
  const owner = (site: string) => (shardOfSite(site, 2) === 0 ? '1/2' : '2/2');
  // Only the shard that owns none of wave 1's ... or the other: one worker runs alone.
  const alone = owner('site-0001') === owner('site-0002') ? (owner('site-0001') === '1/2' ? '2/2' : '1/2') : '1/2';
  const first = await f.worker(run, alone, '--shard-wait', '1s');
  assert.equal(first.code, 75, first.stdout + first.stderr);
  assert.match(first.stdout, /^parked: waiting for wave 1's/m);
  // Its report says it parked, at which wave, waiting for what, and how to go on.
  assert.equal(first.report?.shard?.end, 'parked');
  assert.equal(first.report?.parked?.for, 'barrier');
  assert.equal(first.report?.parked?.wave, 1);
  assert.match(first.report?.parked?.reason ?? '', /^wave 1's \d site\(s\) not ended/);
  assert.match(first.stdout, /: parked in .*; waiting for wave 1's/);
  const wave2 = f.names.filter((s) => s !== 'site-0001' && s !== 'site-0002');
  assert.ok(
    wave2.every((s) => !(s in f.applied('/update/system'))),
    'no site of wave 2 before wave 1 ended',
  );
  const both = await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s)));
  for (const b of both) assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1, 1, 1]);
});

test('a wave with no verdict yet names the sites of it that failed: a worker parked at its barrier, in its own report and in the merged one', async (t) => {
  const f = await shardFleet(t, 6, '  over: site\n  waves: [rest]\n  max-failures: 2');
  const run = (await f.shard('--shards', '2')).run!;
  // One site of shard 1/2 fails; shard 2/2 never runs, so shard 1/2 parks at the wave's barrier.
  const failing = f.names.find((s) => shardOfSite(s, 2) === 0)!;
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: failing });
  const worker = await f.worker(run, '1/2', '--shard-wait', '1s');
  assert.equal(worker.code, 75, worker.stdout + worker.stderr);
  assert.equal(worker.report?.rollout?.waves[0]?.outcome, 'parked');
  assert.deepEqual(worker.report?.rollout?.waves[0]?.failed, [failing], "the worker's report");
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.deepEqual(merged.report?.rollout?.waves[0]?.failed, [failing], merged.stdout);
});

test('a shard whose site failed within the budget, parked at the barrier, and run again by the same command exits 1: its last job says its site failed, not only the attempt that ran it', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]\n  max-failures: 1');
  const run = (await f.shard('--shards', '2')).run!;
  const failing = f.names.find((s) => shardOfSite(s, 2) === 0)!;
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 400, site: failing });
  const first = await f.worker(run, '1/2', '--shard-wait', '1s');
  assert.equal(first.code, 75, first.stdout + first.stderr);
  const other = await f.worker(run, '2/2');
  assert.equal(other.code, 0, other.stdout + other.stderr);
  const again = await f.worker(run, '1/2');
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.match(
    again.stdout,
    new RegExp(`^✖ site ${failing} \\(wave 1\\): failure, in an earlier attempt of this shard$`, 'm'),
  );
  assert.match(again.stdout, /^shard 1\/2: done, 0 site\(s\) run, 1 failed \(1 in an earlier attempt\)$/m);
  assert.match(again.stdout, /^pipeline "Fleet release": failure/m, 'its summary line');
  assert.equal(again.report?.outcome, 'failure', 'its report');
  assert.equal(f.applied('/update/system')[failing], undefined, 'refused, never applied, not sent again');
});

test("a second worker of the same index stopped (SIGTERM) while it waits for the index's lease says it was interrupted before it sent anything (143), not an internal error", async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', {
    before: (method, path) => {
      if (method !== 'POST' || !path.endsWith('/update/system')) return;
      reached();
      return held;
    },
  });
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '1h'];
  const first = workerProcess(args, f.env);
  t.after(() => (release(), first.child.kill('SIGKILL')));
  await atServer;
  const second = workerProcess(args, f.env);
  t.after(() => second.child.kill('SIGKILL'));
  let out = '';
  await new Promise<void>((resolve) => {
    second.child.on('exit', () => resolve());
    second.child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      if (/waiting/.test(out)) resolve();
    });
  });
  assert.match(out, /held by run .*waiting/);
  second.child.kill('SIGTERM');
  const ended = await second.done;
  assert.equal(ended.code, 143, ended.out);
  assert.match(ended.out, /^shard 1\/1: interrupted before it sent anything$/m);
  assert.doesNotMatch(ended.out, /internal error/);
});

test("a worker stopped (SIGTERM) while its takeover's verify reads the target back ends interrupted with its report written, the site left for a later attempt", async (t) => {
  let releaseWrite: () => void = () => undefined;
  const write = new Promise<void>((resolve) => (releaseWrite = resolve));
  let wrote: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (wrote = resolve));
  let releaseRead: () => void = () => undefined;
  const read = new Promise<void>((resolve) => (releaseRead = resolve));
  let reading: () => void = () => undefined;
  const verifying = new Promise<void>((resolve) => (reading = resolve));
  let takenOver = false;
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    before: (method, path) => {
      if (method === 'POST' && path.endsWith('/update/system')) return (wrote(), write);
      // The takeover's verify reads the site's Engines: held there.
      if (takenOver && method === 'GET' && path.endsWith('/monitoring/v1/engines')) return (reading(), read);
      return undefined;
    },
  });
  t.after(() => (releaseWrite(), releaseRead()));
  const run = (await f.shard('--shards', '1')).run;
  const json = join(f.dir, 'second.json');
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '3s'];
  const first = workerProcess(args, f.env);
  t.after(() => first.child.kill('SIGKILL'));
  await atServer;
  first.child.kill('SIGKILL');
  await first.done;
  takenOver = true;
  // Its own lease long (attempt 1's 3s lapses all the same): a stalled machine never loses it midway.
  const second = workerProcess([...args.slice(0, -1), '1h', '--report-json', json], f.env);
  t.after(() => second.child.kill('SIGKILL'));
  await verifying;
  second.child.kill('SIGTERM');
  const ended = await second.done;
  assert.equal(ended.code, 143, ended.out);
  assert.match(ended.out, /^shard 1\/1: interrupted$/m);
  assert.doesNotMatch(ended.out, /enginectl: GET /);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { shard: { end: string; left: string[] } };
  assert.deepEqual([report.shard.end, report.shard.left], ['cancelled', ['site-0001']]);
});

test("report --merge of worker files holds the site an attempt killed before it wrote its file ended (the retried attempt's file carries it), and never says a site of the halted wave no file holds was not started: it is in no report, its job died", async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]\n  max-failures: 0', {
    before: (method, path) => {
      if (method !== 'POST' || !path.includes('/site-0002/') || !path.endsWith('/update/system')) return;
      reached();
      return held;
    },
  });
  t.after(() => release());
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '3s'];
  // Attempt 1 ends site-0001, then is killed while site-0002's update is held at the server: no file.
  const first = workerProcess(args, f.env);
  t.after(() => first.child.kill('SIGKILL'));
  await atServer;
  first.child.kill('SIGKILL');
  await first.done;
  // Attempt 2 takes site-0002 over; verify cannot tell an update/system with no source: the wave halts.
  const json = join(f.dir, 'second.json');
  // Its own lease long (attempt 1's 3s lapses all the same): a stalled machine never loses it midway.
  const second = await runCli([...args.slice(0, -1), '1h', '--report-json', json], { env: f.env });
  const ended = { code: second.code, out: second.stdout + second.stderr };
  assert.equal(ended.code, 1, ended.out);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 }, 'site-0001 ran, in the attempt that died');
  const merged = await f.cli(['report', '--merge', json, '--expect-shards', '1']);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  // Attempt 2 took the lease attempt 1 held over, and read site-0002 back under it: the job's lease is its own.
  const killed = /held by (run \S+)/.exec(ended.out)?.[1];
  assert.ok(killed, ended.out);
  const job = merged.report!.merged!.reports[0]!;
  assert.notEqual(job.lease?.holder.split(' of ')[0], killed, JSON.stringify(job.lease));
  assert.match(job.lease?.takeover?.evidence.join('; ') ?? '', new RegExp(`took over from ${killed} `));
  const line = /^✖ the rollout halted at wave 1: .*$/m.exec(merged.stdout)?.[0] ?? '';
  // The file of attempt 2 holds site-0001, which attempt 1 ended (its steps as attempt 1 recorded them).
  assert.doesNotMatch(merged.stdout, /site=site-0001: no report/);
  assert.deepEqual(
    merged.report!.steps.filter((s) => s.matrix?.site === 'site-0001').map((s) => [s.outcome, s.resume]),
    [
      ['success', 'earlier-run'],
      ['success', 'earlier-run'],
    ],
  );
  // It cannot tell whether attempt 1 ran any of the wave's other sites: none is said not started.
  assert.match(line, /; nothing is undone; in no report \(its job died or never ran\): site-0003, site-0004$/);
  // The store knows: site-0001 ran; the others never started.
  const stored = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.match(stored.stdout, /^✖ the rollout halted at wave 1: .*; not started: site-0003, site-0004$/m);
});

test("a queue worker that reaches the barrier once its wave's budget is spent, a site still running elsewhere, exits 1 at its wait limit (the rollout halts there), not parked", async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  let answered: () => void = () => undefined;
  const spent = new Promise<void>((resolve) => (answered = resolve));
  const f = await shardFleet(t, 3, '  over: site\n  waves: [rest]\n  max-parallel: 2\n  max-failures: 0', {
    before: (method, path) => {
      if (method !== 'POST' || !path.includes('/site-0002/') || !path.endsWith('/update/system')) return;
      reached();
      return held;
    },
    answered: (method, path) => {
      if (method === 'POST' && path.includes('/site-0001/')) answered();
    },
  });
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  // Worker 2/2 claims every site (two lanes): site-0002 is held at the server; site-0001 fails, spending the budget of 0.
  const other = workerProcess(
    ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '2/2', '--shard-ttl', '1h'],
    f.env,
  );
  t.after(() => (release(), other.child.kill('SIGKILL')));
  // Fails the waits below should worker 2/2 end early (handled here: it ends anyway once released).
  const gone = other.done.then(({ out }) => assert.fail(`worker 2/2 ended with site-0002 held: ${out}`));
  gone.catch(() => undefined);
  await Promise.race([Promise.all([atServer, spent]), gone]);
  // Its failure recorded in the wave's log: the budget is spent for every worker from then on.
  for (let tries = 1; !waveLog(f.store, run, 1).some((e) => e.kind === 'ended' && e.site === 'site-0001'); tries++) {
    if (other.child.exitCode !== null) await gone;
    if (tries === 2000) assert.fail("site-0001's end never reached the wave's log");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const worker = await f.worker(run, '1/2', '--shard-wait', '1s');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.match(
    worker.stdout,
    /the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0 \(its verdict is written once the wave's sites ended\)/,
  );
  assert.equal(worker.report?.shard?.end, 'halted');
  assert.equal(worker.report?.parked, null);
  // Its report says where the rollout halts, and which site failed, though the verdict is not written yet.
  assert.equal(worker.report?.rollout?.halted?.wave, 1);
  assert.deepEqual(
    worker.report?.rollout?.waves.map((w) => [w.outcome, w.failed]),
    [['halted', ['site-0001']]],
  );
  release();
  const ended = await other.done;
  assert.equal(ended.code, 1, ended.out);
  const log = waveLog(f.store, run, 1);
  assert.deepEqual(
    log.filter((e) => e.kind === 'start' && e.worker === 0),
    [],
    'worker 1/2 started no site: the budget was spent',
  );
});

test('the merged report of a sharded rollout parked on its bake says where it waits: what ran succeeded, the later waves not started (not "no report"), exit 0 as a parked run\'s report', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [[site-0001], rest]\n  analysis: { bake: 1h }');
  const run = (await f.shard('--shards', '2')).run!;
  const workers = await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s, '--shard-wait', '1s')));
  for (const w of workers) assert.equal(w.code, 75, w.stdout + w.stderr);
  // The elected worker's own report says it parked on the bake, until its end, and how it goes on.
  const analyst = workers.find((w) => w.report?.parked?.for === 'bake');
  assert.ok(analyst, workers.map((w) => JSON.stringify(w.report?.parked)).join('\n'));
  assert.equal(analyst.report?.parked?.reason, 'the 1h bake after wave 1');
  assert.equal(
    Date.parse(analyst.report?.parked?.until ?? '') - Date.parse(analyst.report?.parked?.since ?? ''),
    3_600_000,
    "from the bake's start to its end",
  );
  // The workers' files merged, in either order: the bake is what the rollout waits for, not another
  // worker's wait at the barrier (here the first worker's file told as one that parked at the barrier first).
  const files = workers.map((w, i) => {
    const file = join(f.dir, `worker-${i + 1}.json`);
    const report = structuredClone(w.report!);
    if (i === 0 && report.rollout?.parked)
      report.rollout.parked = {
        ...report.rollout.parked,
        for: 'barrier',
        until: undefined,
        reason: 'the verdict of wave 1 after 1s',
      };
    writeFileSync(file, JSON.stringify(report));
    return file;
  });
  for (const order of [files, [...files].reverse()]) {
    const byFiles = await f.cli(['report', '--merge', ...order, '--expect-shards', '2']);
    assert.equal(byFiles.report?.rollout?.parked?.for, 'bake', byFiles.stdout + byFiles.stderr);
  }
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.doesNotMatch(merged.stdout, /no report/);
  assert.match(
    merged.stdout,
    /^⏸ the rollout waits at wave 1: the 1h bake after wave 1 \(until .*\); run the workers again once it has passed; not started: site-0002, site-0003, site-0004$/m,
  );
  assert.equal(merged.report?.outcome, 'success');
  assert.equal(merged.report?.parked?.wave, 1);
  // What it waits for, as one process's parked run says it: the bake, and until when.
  assert.equal(merged.report?.parked?.for, 'bake');
  assert.equal(merged.report?.parked?.reason, 'the 1h bake after wave 1');
  // With its evidence, as one process's bake park gives it: the time left when it parked, the wave's sites done.
  assert.deepEqual(
    merged.report?.parked?.waits.map((w) => [w.value, w.what, w.evidence.length, w.evidence[1]]),
    [[null, 'the 1h bake after wave 1', 2, 'wave 1: 1 of 1 done']],
  );
  assert.match(merged.report?.parked?.waits[0]?.evidence[0] ?? '', /^\S+ left \(until \S+ on the run's clock\)$/);
  assert.equal(
    Date.parse(merged.report?.parked?.until ?? '') - Date.parse(merged.report?.parked?.since ?? ''),
    3_600_000,
  );
  assert.deepEqual(
    merged.report?.rollout?.waves.map((w) => w.outcome),
    ['parked', 'not-started'],
  );
  assert.equal(merged.report?.rollout?.parked?.wave, 1);
  // The later sites' steps listed as a parked run lists them: not started, and what the rollout waits for.
  assert.deepEqual(
    merged.report?.steps.filter((s) => s.outcome === 'cancelled').map((s) => [s.matrix?.site, s.wave, s.error?.code]),
    ['site-0002', 'site-0003', 'site-0004', 'site-0002', 'site-0003', 'site-0004'].map((s) => [s, 2, 'ROLLOUT_PARKED']),
  );
  assert.equal(
    merged.report?.steps.find((s) => s.outcome === 'cancelled')?.error?.message,
    'not started: the rollout parked at wave 1 (waiting for the 1h bake after wave 1)',
  );
  // A site's terminal record not written yet (its worker killed after the log's entry): the wave has
  // not ended everywhere, and no worker runs it: the rollout stopped there (exit 1); the later
  // waves' sites did not start (no job died holding them), not "no report".
  rmSync(join(f.store, 'shards', run, 'sites', 's-site-0001'));
  const early = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(early.code, 1, early.stdout + early.stderr);
  assert.equal(early.report?.outcome, 'failure');
  assert.doesNotMatch(early.stdout, /no report/);
  assert.match(
    early.stdout,
    /^✖ the rollout stopped in wave 1: not every site of it ended, and no worker is running it; not started: site-0002, site-0003, site-0004; run the shards/m,
  );
  assert.deepEqual(
    early.report?.rollout?.waves.map((w) => w.outcome),
    ['cancelled', 'not-started'],
  );
  assert.deepEqual(
    [...new Set(early.report?.steps.filter((s) => s.matrix?.site !== 'site-0001').map((s) => s.error?.message))],
    ['not started: the rollout stands at wave 1, which has not ended everywhere, and no worker of the run is running'],
  );

  // A wave that ended past its budget, its verdict not written yet: told as the halt it will be, not as a park.
  const g = await shardFleet(t, 3, '  over: site\n  waves: [[site-0001], rest]');
  g.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const halted = (await g.shard('--shards', '2')).run!;
  for (const w of await Promise.all(['1/2', '2/2'].map((s) => g.worker(halted, s)))) assert.equal(w.code, 1);
  rmSync(join(g.store, 'shards', halted, 'waves', '1', 'verdict'));
  const pending = await g.cli(['report', '--merge', '--store', g.storeUrl, '--run', halted]);
  assert.equal(pending.code, 1, pending.stdout + pending.stderr);
  assert.doesNotMatch(pending.stdout, /no report|waits at/);
  assert.match(
    pending.stdout,
    /^✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0 \(the wave's verdict not yet written\); nothing is undone; not started: site-0002, site-0003$/m,
  );
  assert.deepEqual(
    pending.report?.rollout?.waves.map((w) => [w.outcome, w.failed]),
    [
      ['halted', ['site-0001']],
      ['not-started', []],
    ],
  );
  assert.deepEqual(
    pending.report?.steps.filter((s) => s.outcome === 'cancelled').map((s) => [s.matrix?.site, s.error?.message]),
    ['site-0002', 'site-0003', 'site-0002', 'site-0003'].map((s) => [s, 'not started: the rollout halted at wave 1']),
  );
});

test("a queue wave past its budget, its verdict never written and no worker alive: told as the halt it will be, the sites no worker started listed not started, not 'no report'", async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [rest]\n  max-failures: 0');
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.deepEqual(f.applied('/update/system'), {}, 'site-0001 failed first: no other site started');
  // What a worker killed before writing the verdict leaves.
  rmSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'));
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.doesNotMatch(read.stdout, /no report|stopped in wave/);
  assert.match(
    read.stdout,
    /^✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0 \(the wave's verdict not yet written\); nothing is undone; not started: site-0002, site-0003$/m,
  );
  assert.deepEqual(
    [...new Set(read.report?.steps.filter((s) => s.matrix?.site !== 'site-0001').map((s) => s.error?.message))],
    ['not started: wave 1 had 1 failed site(s), over its budget of 0'],
  );
});

test('a rollout stopped in a wave whose failures already passed its budget, a started site of it with no end, no worker alive: the terminal says it halts there once they ended, not that it goes on', async (t) => {
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-parallel: 2\n  max-failures: 0',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  // What a worker killed after site-0002's last call and before its end and the verdict leaves.
  rmSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'));
  rmSync(join(f.store, 'shards', run, 'sites', 's-site-0002'));
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.match(
    read.stdout,
    /^✖ the rollout stopped in wave 1: not every site of it ended, and no worker is running it; not started: site-0003; run the shards whose sites have not ended again \(the same commands\): its failures passed its budget of 0: the rollout halts there once they ended$/m,
  );
  assert.deepEqual(
    read.report?.rollout?.waves.map((w) => [w.outcome, w.failed]),
    [
      ['cancelled', ['site-0001']],
      ['not-started', []],
    ],
  );
});

test("a queue wave past its budget, a started site of it with no end, no worker alive: the sites no worker started are listed not started (the budget is spent), not 'no report'", async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [rest]\n  max-failures: 0');
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0002' });
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.deepEqual(
    Object.keys(f.applied('/update/system')),
    ['site-0001'],
    'site-0002 failed: site-0003 never started',
  );
  // What a worker killed after site-0001's end reached the wave's log, before its terminal record and the verdict, leaves.
  rmSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'));
  rmSync(join(f.store, 'shards', run, 'sites', 's-site-0001'));
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.doesNotMatch(read.stdout, /no report/);
  assert.match(
    read.stdout,
    /^✖ the rollout stopped in wave 1: not every site of it ended, and no worker is running it; not started: site-0003; run the shards whose sites have not ended again \(the same commands\): its failures passed its budget of 0: the rollout halts there once they ended$/m,
  );
  assert.deepEqual(read.report?.merged?.noReport, []);
  const left = read.report?.steps.filter((s) => s.matrix?.site === 'site-0003') ?? [];
  assert.deepEqual(
    left.map((s) => [s.outcome, s.wave, s.error?.code]),
    [0, 1].map(() => ['cancelled', 1, 'NOT_STARTED']),
  );
  assert.deepEqual(
    read.report?.rollout?.waves.map((w) => [w.outcome, w.failed]),
    [['cancelled', ['site-0002']]],
  );
  assert.equal(
    left[0]?.error?.message,
    "not started: wave 1's failures passed its budget of 0; the rollout halts once its sites ended",
  );
  // The failed site's terminal record not written either (its worker killed after the log's entry):
  // its failure in the wave's log counts all the same.
  rmSync(join(f.store, 'shards', run, 'sites', 's-site-0002'));
  const again = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.deepEqual(
    again.report?.rollout?.waves.map((w) => [w.outcome, w.failed]),
    [['cancelled', ['site-0002']]],
  );
  assert.match(again.stdout, /its failures passed its budget of 0: the rollout halts there once they ended$/m);
});

test('a rollout stopped in its last wave (a site of it with no end, no worker alive) says it stopped there and that it ends once they ended: not a success', async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  // What a worker killed after site-0002's end reached the wave's log, before its terminal record and the verdict, leaves.
  rmSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'));
  rmSync(join(f.store, 'shards', run, 'sites', 's-site-0002'));
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.equal(read.report?.outcome, 'failure');
  assert.match(
    read.stdout,
    /^✖ the rollout stopped in wave 1: not every site of it ended, and no worker is running it; run the shards whose sites have not ended again \(the same commands\): the rollout ends once they ended$/m,
  );
  assert.deepEqual(
    read.report?.rollout?.waves.map((w) => w.outcome),
    ['cancelled'],
  );
});

/** Three sites in two waves, one shard: site-0001's update, continue-on-error, left in doubt by a gateway's 504; its worker run. */
async function doubtUnderContinueOnError(t: TestContext, budget: number) {
  const f = await shardFleet(t, 3, `  over: site\n  waves: [[site-0001], rest]\n  max-failures: ${budget}`);
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    uses: update/system\n',
      '    uses: update/system\n    continue-on-error: true\n',
    ),
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', gateway: 504, site: 'site-0001' });
  const run = (await f.shard('--shards', '1')).run;
  return { f, run, worker: await f.worker(run, '1/1') };
}

test('a site whose write continue-on-error left in doubt fails in its wave: the budget spent, the next wave starts nowhere, the worker exits 1', async (t) => {
  const { f, run, worker } = await doubtUnderContinueOnError(t, 0);
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.deepEqual(Object.keys(f.applied('/update/system')), ['site-0001'], 'no site of wave 2 was updated');
  assert.deepEqual(
    worker.report?.rollout?.waves.map((w) => [w.outcome, w.failed]),
    [
      ['halted', ['site-0001']],
      ['not-started', []],
    ],
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.match(merged.stdout, /^✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\)/m);
});

test("within the budget, a site whose write continue-on-error left in doubt fails in its wave and in every report: the worker's and the merged one say failure, as the wave and the exit do", async (t) => {
  const { f, run, worker } = await doubtUnderContinueOnError(t, 1);
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.deepEqual(worker.report?.rollout?.waves[0]?.failed, ['site-0001']);
  assert.equal(worker.report?.outcome, 'failure', "the worker's report");
  const row = (r: typeof worker.report, site: string) =>
    r?.merged?.reports.find((x) => x.source.startsWith(`site ${site}:`))?.outcome;
  assert.equal(row(worker.report, 'site-0001'), 'failure');
  assert.equal(row(worker.report, 'site-0002'), 'success');
  assert.match(worker.stdout, /^pipeline "Fleet release": failure/m);
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.equal(merged.report?.outcome, 'failure', merged.stdout);
  assert.equal(row(merged.report, 'site-0001'), 'failure');
  assert.match(merged.stdout, /^✖ site=site-0001: failure/m);
  assert.doesNotMatch(merged.stdout, /--resume JOURNAL/, 'a sharded run takes no --resume');
});

test('report --merge of worker files: a worker interrupted at its last wave, the other shard not run yet, is not said to be stopped with no worker running it (files cannot know)', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '2')).run;
  const mine = shardOfSite('site-0001', 2);
  const own = f.names.filter((s) => shardOfSite(s, 2) === mine);
  const stop = new AbortController();
  const json = join(f.dir, 'a.json');
  const worker = runCli(
    [
      'run',
      f.file,
      '--store',
      f.storeUrl,
      '--run',
      run,
      '--shard',
      `${mine + 1}/2`,
      '--shard-wait',
      '1h',
      '--report-json',
      json,
    ],
    { env: f.env, signal: stop.signal },
  );
  const ended = (s: string) => existsSync(join(f.store, 'shards', run, 'sites', `s-${s}`));
  let gone = false;
  void worker.then(() => (gone = true));
  while (!own.every(ended) && !gone) await new Promise((resolve) => setTimeout(resolve, 50));
  stop.abort();
  await worker;
  const merged = await runCli(['report', '--merge', json, '--expect-shards', '2']);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.doesNotMatch(merged.stdout, /no worker is running it/);
});

test("a worker stopped (SIGTERM) with a site's write in doubt: its terminal gives a sharded site's hint, as its reports do, not a run's --in-doubt; read before, its call's 504 is told as recorded", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [[site-0001], rest]');
  retryingUpdate(f);
  const run = (await f.shard('--shards', '1')).run;
  const worker = workerProcess(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'], f.env);
  t.after(() => worker.child.kill('SIGKILL'));
  // Stopped in the retry's wait: its write in doubt (the gateway's 504).
  let out = '';
  await new Promise<void>((resolve) => {
    worker.child.on('exit', () => resolve());
    worker.child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (/retrying in/.test(out)) resolve();
    });
  });
  assert.match(out, /retrying in/, out);
  // Read meanwhile: under way, its call answered (504) and recorded, not "its outcome not yet recorded".
  const during = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const update = during.report?.steps.find((s) => s.matrix?.site === 'site-0001' && s.uses === 'update/system');
  assert.match(
    update?.error?.message ?? '',
    /; its call POST \/api\/devops\/v1\/update\/system is sent, answered 504, which does not say what the server did; the step is not ended$/,
    during.stdout,
  );
  worker.child.kill('SIGTERM');
  const done = await worker.done;
  assert.match(
    done.out,
    /^ {4}hint: run its shard's index again: the worker that takes the site over reads the target back/m,
  );
  assert.doesNotMatch(done.out, /hint: .*(--in-doubt|--resume)/);
});

test("a static shard's worker asks only for its own sites' secrets (an analysis with no wave after it included); a queue worker, which may claim any site, for every one's", async (t) => {
  const f = await shardFleet(
    t,
    6,
    '  over: site\n  waves: [rest]\n  analysis: { gates: [alerts], count: 1 }',
    undefined,
    {
      passwords: true,
    },
  );
  const { runCli } = await import('../helpers/cli.ts');
  const only = (sites: string[]) => ({
    ...Object.fromEntries(Object.entries(f.env).filter(([k]) => !k.startsWith('PW_'))),
    ...Object.fromEntries(sites.map((s) => [passwordOf(s), 'admin'])),
  });
  const run = (await f.shard('--shards', '2')).run;
  const owned = [0, 1].map((i) => f.names.filter((s) => shardOfSite(s, 2) === i));
  const workers = await Promise.all(
    ['1/2', '2/2'].map((spec, i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec], { env: only(owned[i]!) }),
    ),
  );
  for (const w of workers) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1, 1, 1]);

  const queue = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const refused = await runCli(['run', f.file, '--store', f.storeUrl, '--run', queue, '--shard', '1/2'], {
    env: only(owned[0]!),
  });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, new RegExp(`secrets\\.${passwordOf(owned[1]![0]!)} is not set`));
});

test("queue workers of 4 lanes each (max-parallel 4): every site claimed once; the wave's log a sequence without a gap, each site started and ended once, a success and its lane's next start one entry", async (t) => {
  const f = await shardFleet(t, 60, '  over: site\n  waves: [rest]\n  max-parallel: 4');
  const run = (await f.shard('--shards', '3', '--assign', 'queue')).run;
  const workers = await Promise.all(['1/3', '2/3', '3/3'].map((s) => f.worker(run, s)));
  for (const w of workers) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(Object.values(f.applied('/update/system')), Array(60).fill(1));
  const keys = readdirSync(join(f.store, 'shards', run, 'waves', '1', 'log')).sort();
  assert.deepEqual(
    keys,
    Array.from({ length: keys.length }, (_, i) => String(i + 1).padStart(8, '0')),
    'no gap',
  );
  const log = waveLog(f.store, run, 1);
  const count = (kind: string) => {
    const sites = log.filter((e) => e.kind === kind).map((e) => e.site);
    return [sites.length, new Set(sites).size];
  };
  assert.deepEqual(count('start'), [60, 60]);
  assert.deepEqual(count('ended'), [60, 60]);
  // A success is recorded in its lane's next start: an entry of its own only for a lane's last site (12 lanes).
  assert.ok(keys.length <= 60 + 12, `${keys.length} entries for 60 sites`);
  // Worker k of 3 starts k/3 of the way into the wave (the first site from there, going round, that
  // no worker started before it): workers claiming at once want other sites.
  const wave = (JSON.parse(readFileSync(join(f.store, 'shards', run, 'manifest'), 'utf8')) as { waves: string[][] })
    .waves[0]!;
  for (const w of [0, 1, 2]) {
    const at = log.findIndex((e) => e.kind === 'start' && e.worker === w);
    assert.ok(at >= 0, `worker ${w + 1} started a site`);
    const before = new Set(log.slice(0, at).map((e) => e.site));
    const from = Array.from({ length: 60 }, (_, k) => wave[(w * 20 + k) % 60]!);
    assert.equal(
      log[at]!.site,
      from.find((site) => !before.has(site)),
      `worker ${w + 1}'s first site`,
    );
  }
});

test('the analysis between waves is run once, by the elected worker: a gate failing after wave 1 halts the rollout in every shard; no site of wave 2 starts anywhere; the verdict names the round', async (t) => {
  // site-0001's first alert read is answered clean (its own gate passes), then a critical alert is raised: the analysis sees it.
  const f = await shardFleet(
    t,
    6,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m }',
    undefined,
    { faults: ['GET /api/monitoring/v1/alerts site=site-0001 raise-alert=critical:disk_full'] },
  );
  const run = (await f.shard('--shards', '3')).run;
  // The analysis's 2-minute intervals pass at once on the workers' clock (a lease of an hour outlives them); every other wait is real.
  const clock = analysisClock();
  const workers = await Promise.all(
    ['1/3', '2/3', '3/3'].map((s) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', s, '--shard-ttl', '1h'], {
        env: f.env,
        clock,
      }),
    ),
  );
  for (const w of workers) {
    assert.equal(w.code, 1, w.stdout + w.stderr);
    assert.match(
      w.stdout + w.stderr,
      /the rollout halted at wave 1: .*round 1\/2: No critical alert at site-0001.*disk_full/,
    );
  }
  assert.deepEqual(Object.keys(f.applied('/update/system')), ['site-0001'], 'no site of wave 2 was updated');
  // One analyst: its rounds' reads of the canary, and no more (each round one read, the site's own gate one).
  const reads = [...f.sites.started()]
    .find(([name]) => name === 'site-0001')![1]
    .requests.filter((r) => r.path.endsWith('/monitoring/v1/alerts')).length;
  assert.equal(reads, 2, "the site run's gate and one failed round, by one worker");
  const verdict = JSON.parse(readFileSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'), 'utf8')) as {
    passed: boolean;
    text: string;
  };
  assert.equal(verdict.passed, false);
  assert.match(verdict.text, /^round 1\/2: No critical alert at site-0001/);
  // The merged report tells the analysis as one process's report does: its rounds and what it found.
  const summary = join(f.dir, 'merged.md');
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--summary', summary]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  const analysis = merged.report?.rollout?.waves[0]?.analysis;
  assert.deepEqual({ ...analysis, text: undefined }, { passed: false, rounds: 1, failedRounds: 1, text: undefined });
  assert.match(analysis?.text ?? '', /^round 1\/2: No critical alert at site-0001/);
  assert.equal(merged.report?.rollout?.waves[1]?.analysis, null, 'no analysis after the last wave');
  const text = readFileSync(summary, 'utf8');
  assert.match(text, /\| failed: round 1\/2: No critical alert at site-0001/);
  // One heading a section: the jobs, the waves, then the steps (those the halt left not started among them, as one process lists them).
  assert.deepEqual(text.match(/^### .*$/gm), [
    '### Jobs',
    '### Waves',
    '### Steps',
    '### Failed and cancelled steps',
    '### Update reports',
  ]);
});

test("a static shard's worker of a rollout analysed between waves asks for its own sites' secrets and those of the waves an analysis reads, not the last wave's", async (t) => {
  const f = await shardFleet(
    t,
    6,
    '  over: site\n  waves: [[site-0001], [site-0002], rest]\n  analysis: { gates: [alerts], count: 1 }',
    undefined,
    { passwords: true },
  );
  const analysed = ['site-0001', 'site-0002'];
  const only = (sites: string[]) => ({
    ...Object.fromEntries(Object.entries(f.env).filter(([k]) => !k.startsWith('PW_'))),
    ...Object.fromEntries([...sites, ...analysed].map((s) => [passwordOf(s), 'admin'])),
  });
  const run = (await f.shard('--shards', '2')).run;
  const owned = [0, 1].map((i) => f.names.filter((s) => shardOfSite(s, 2) === i && !analysed.includes(s)));
  assert.ok(
    owned.every((o) => o.length > 0),
    'each worker owns a site of the last wave',
  );
  // The analysis's 2-minute waits pass at once on the workers' clock (a lease of an hour outlives them); every other wait is real.
  const clock = analysisClock();
  const workers = await Promise.all(
    ['1/2', '2/2'].map((spec, i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-ttl', '1h'], {
        env: only(owned[i]!),
        clock,
      }),
    ),
  );
  for (const w of workers) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1, 1, 1]);
  // More shards than sites: a worker that owns no site asks only for the analysed waves' secrets.
  const sparse = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 1 }',
    undefined,
    { passwords: true },
  );
  const envOf = (sites: string[]) => ({
    ...Object.fromEntries(Object.entries(sparse.env).filter(([k]) => !k.startsWith('PW_'))),
    ...Object.fromEntries([...sites, 'site-0001'].map((s) => [passwordOf(s), 'admin'])),
  });
  const sparseRun = (await sparse.shard('--shards', '4')).run;
  const specs = ['1/4', '2/4', '3/4', '4/4'];
  const ownedBy = specs.map((_, i) => sparse.names.filter((s) => shardOfSite(s, 4) === i));
  assert.ok(
    ownedBy.some((o) => o.length === 0),
    'a shard owns no site',
  );
  const ends = await Promise.all(
    specs.map((spec, i) =>
      runCli(
        ['run', sparse.file, '--store', sparse.storeUrl, '--run', sparseRun, '--shard', spec, '--shard-ttl', '1h'],
        {
          env: envOf(ownedBy[i]!),
          clock,
        },
      ),
    ),
  );
  for (const w of ends) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(Object.values(sparse.applied('/update/system')), [1, 1, 1]);
  // With no analysis, a worker that owns no site asks for no site's secrets.
  const plain = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, { passwords: true });
  const plainRun = (await plain.shard('--shards', '4')).run;
  const plainOwned = specs.map((_, i) => plain.names.filter((s) => shardOfSite(s, 4) === i));
  assert.ok(
    plainOwned.some((o) => o.length === 0),
    'a shard owns no site',
  );
  const plainEnds = await Promise.all(
    specs.map((spec, i) =>
      runCli(['run', plain.file, '--store', plain.storeUrl, '--run', plainRun, '--shard', spec], {
        env: {
          ...Object.fromEntries(Object.entries(plain.env).filter(([k]) => !k.startsWith('PW_'))),
          ...Object.fromEntries(plainOwned[i]!.map((s) => [passwordOf(s), 'admin'])),
        },
      }),
    ),
  );
  for (const w of plainEnds) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.deepEqual(Object.values(plain.applied('/update/system')), [1, 1]);
});

test("static shards: the analysis after a wave is run by whichever worker is elected, one that owns none of the wave's sites too; a static worker of a rollout with an analysis asks for the secrets of the sites it may analyse", async (t) => {
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], bake: 1h, count: 1 }',
    undefined,
    { passwords: true },
  );
  const run = (await f.shard('--shards', '2')).run;
  const owner = shardOfSite('site-0001', 2) === 0 ? '1/2' : '2/2';
  const other = owner === '1/2' ? '2/2' : '1/2';
  // The workers' clock: every wait passes at once (a bake of an hour, a barrier's polls), as a later job would find it.
  const real = realClock();
  let skipped = 0;
  const clock = {
    now: () => real.now() + skipped,
    sleep: (ms: number) => Promise.resolve(void (skipped += ms)),
  };
  // The sites' Date moves with the workers' clock: the time a later job finds has passed for the servers too.
  f.server.now = clock.now;
  const worker = (spec: string, env = f.env) =>
    runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-wait', '1m', '--shard-ttl', '1h'],
      {
        env,
        clock,
      },
    );
  // A worker missing a site's secret that the analysis reads is refused before it sends anything.
  const without = Object.fromEntries(Object.entries(f.env).filter(([k]) => k !== passwordOf('site-0001')));
  const refused = await worker(other, without);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, new RegExp(`secrets\\.${passwordOf('site-0001')} is not set`));
  assert.deepEqual(f.applied('/update/system'), {});
  // The owner of wave 1 runs its site, stands as analyst, and parks on the bake.
  const first = await worker(owner);
  assert.equal(first.code, 75, first.stdout + first.stderr);
  assert.match(first.stdout, /parked: waiting for the 1h bake after wave 1/);
  skipped += 3_600_000;
  // The other worker, which owns no site of wave 1, finds the owner gone and runs the analysis itself.
  const second = await worker(other);
  assert.match(second.stdout + second.stderr, /wave 1: passed/);
  assert.doesNotMatch(second.stdout + second.stderr, /names no server/);
  const both = await Promise.all([worker(owner), worker(other)]);
  for (const b of both) assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1]);
  const verdict = JSON.parse(readFileSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'), 'utf8')) as {
    passed: boolean;
    worker: number;
  };
  assert.equal(verdict.passed, true);
  assert.equal(verdict.worker, other === '1/2' ? 0 : 1);
});

/**
 * Two static shards of a rollout of `n` sites whose wave 1 is site-0001, analysed after it by one
 * round of the alerts gate: the owner of site-0001 and the other worker (`--shard` specs), their
 * arguments with a lease of an hour, and the owner's analysis held (its second read of
 * site-0001's alerts, the first being its own site's gate): `analysing` once it is held,
 * `release()` lets it go.
 */
async function heldAnalysis(t: TestContext, n: number) {
  let reads = 0;
  let held: (() => void) | undefined;
  let analysisHeld!: () => void;
  const analysing = new Promise<void>((r) => (analysisHeld = r));
  const f = await shardFleet(
    t,
    n,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 1 }',
    {
      before: (method, path) => {
        if (method !== 'GET' || !path.endsWith('/sites/site-0001/api/monitoring/v1/alerts') || ++reads !== 2) return;
        analysisHeld();
        return new Promise<void>((go) => (held = go));
      },
    },
  );
  const run = (await f.shard('--shards', '2')).run;
  const owner = shardOfSite('site-0001', 2) === 0 ? '1/2' : '2/2';
  const other = owner === '1/2' ? '2/2' : '1/2';
  const args = (spec: string) => [
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    spec,
    '--shard-ttl',
    '1h',
  ];
  return { f, run, owner, other, args, analysing, release: () => held?.() };
}

test('an analyst that stops before its verdict (interrupted) gives its place up at once: a worker waiting at the barrier stands at its next read, not when the stopped lease would have lapsed', async (t) => {
  // The owner's analysis held until the test lets it go.
  const { f, run, owner, other, args, analysing, release } = await heldAnalysis(t, 4);
  const stop = new AbortController();
  // The owner's analysis waits its 2-minute interval at once on its clock (a lease of an hour outlives it).
  const ownerClock = analysisClock();
  const ownerDone = runCli([...args(owner), '--shard-wait', '2h'], {
    env: f.env,
    signal: stop.signal,
    clock: ownerClock,
  });
  // The other worker starts once the owner stands and analyses. Its clock: its reads of the store
  // come as fast as it sleeps, each sleep counted as time passed. At its first (it saw the owner
  // elected and alive), the owner is interrupted and has ended before the other reads again.
  await analysing;
  const real = realClock();
  let skipped = 0;
  let sleeps = 0;
  const clock = {
    now: () => real.now() + skipped,
    sleep: async (ms: number) => {
      if (++sleeps === 1) {
        stop.abort();
        release();
        await ownerDone;
      }
      skipped += ms;
    },
  };
  const waiting = await runCli([...args(other), '--shard-wait', '30m'], { env: f.env, clock });
  const stopped = await ownerDone;
  assert.equal(stopped.code, 130, stopped.stdout + stopped.stderr);
  assert.match(stopped.stdout, /interrupted/);
  assert.match(waiting.stdout + waiting.stderr, /wave 1: passed/);
  const verdict = JSON.parse(readFileSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'), 'utf8')) as {
    worker: number;
  };
  assert.equal(verdict.worker, other === '1/2' ? 0 : 1);
});

test("an analyst paused past its lease while another stood and wrote the verdict: woken, it says the stored verdict is another shard's, not its own analysis's", async (t) => {
  // The owner's analysis held until the other's verdict is written.
  const { f, run, owner, other, args, analysing, release } = await heldAnalysis(t, 2);
  // Both workers' clocks pass the 2-minute interval at once; the other's runs 2 hours on (the owner's lease lapsed on it).
  const ownerDone = runCli([...args(owner), '--shard-wait', '1m'], { env: f.env, clock: analysisClock(0) });
  await analysing;
  const otherDone = runCli([...args(other), '--shard-wait', '1m'], { env: f.env, clock: analysisClock(7_200_000) });
  const verdictFile = join(f.store, 'shards', run, 'waves', '1', 'verdict');
  while (!existsSync(verdictFile)) await realClock().sleep(20, new AbortController().signal);
  release();
  const [woken] = await Promise.all([ownerDone, otherDone]);
  const verdict = JSON.parse(readFileSync(verdictFile, 'utf8')) as { worker: number };
  assert.equal(verdict.worker, other === '1/2' ? 0 : 1, 'the other stood and wrote it');
  assert.match(
    woken.stdout,
    new RegExp(
      `wave 1: passed \\(.*\\) \\(the verdict of shard ${verdict.worker + 1}, written while this worker was away`,
    ),
  );
});

test("run ids: 20,000 started in one second are all distinct (a sharded run starts a run per site, thousands a second, each its own journal); an earlier run's id, of 6 hex digits, is still read", async () => {
  const { newRunId, checkRunId } = await import('../../src/journal/replica.ts');
  const at = Date.parse('2026-11-28T22:00:00Z');
  const ids = Array.from({ length: 20_000 }, () => newRunId(at));
  assert.equal(new Set(ids).size, ids.length, 'no two runs share an id');
  for (const id of ids.slice(0, 3)) assert.equal(checkRunId(id), id);
  assert.equal(checkRunId('20261126T225343Z-a1b2c3'), '20261126T225343Z-a1b2c3');
  assert.throws(() => checkRunId('20261126T225343Z-a1b2c3d4'), /not a run id/);
});

test("an analyst's record of a wave cut short in the store fails the worker that reads it STORE_DAMAGED (exit 1), naming the record, not an internal error; no site of the next wave starts", async (t) => {
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 1 }',
  );
  const run = (await f.shard('--shards', '1')).run;
  const dir = join(f.store, 'shards', run, 'waves', '1', 'analyst');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '00000001'), '{"worker":0,"hol');
  const worker = await runCli(
    ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '1h'],
    {
      env: f.env,
      clock: analysisClock(),
    },
  );
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.match(worker.stderr, /STORE_DAMAGED|waves\/1\/analyst\/00000001 is not an analyst's record of enginectl/);
  assert.doesNotMatch(worker.stderr, /internal error/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 }, 'wave 2 not started');
});
