// A fleet over 8 worker processes (the built CLI, as a CI system or a cluster runs it), static and
// queue, with workers killed at random (SIGKILL, the worker whose write the server just applied,
// its answer not yet sent) and restarted: every site written exactly once (the emulator's request
// logs: no duplicate, no gap), no site of wave k+1 written before wave k's verdict was in the store,
// no site started after the wave's failure budget was spent (the wave's log), and the merged
// report the single-process run's but for timings.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { shardFleet, waveLog } from './helpers.ts';
import { readManifestFile } from './manifest-file.ts';

const SITES = Number(process.env.SHARD_TEST_SITES ?? 1000);
const WORKERS = 8;

/** A seeded generator (mulberry32): the kills are reproducible from the seed printed on failure. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

async function fleetOverWorkers(
  t: import('node:test').TestContext,
  assign: 'static' | 'queue',
  failing: string[],
  budget: string,
  /** After how many applied writes a worker is killed (a little later, by the seed). */
  killPoints: number[],
) {
  const seed = Number(process.env.SHARD_TEST_SEED ?? Date.now() % 100000);
  t.diagnostic(`seed ${seed}`);
  const next = random(seed);
  const children = new Map<number, ChildProcess>();
  const killAt = new Set(killPoints.map((at) => Math.floor(at + next() * 10)));
  let writes = 0;
  let kills = 0;
  const early: string[] = [];
  const known: { manifest?: ReturnType<typeof readManifestFile> } = {};
  let storeDir = '';
  let run = '';
  const f = await shardFleet(
    t,
    SITES,
    `  over: site\n  waves: [[site-0001], 5%, rest]\n  max-parallel: 1\n  max-failures: ${budget}`,
    {
      before: (method, path) => {
        const { manifest } = known;
        if (method !== 'POST' || !path.endsWith('/update/system') || !manifest) return;
        const site = /\/sites\/([^/]+)\//.exec(path)?.[1] ?? '';
        const wave = manifest.waves.findIndex((w) => w.includes(site)) + 1;
        if (wave > 1 && !existsSync(join(storeDir, 'shards', run, 'waves', String(wave - 1), 'verdict')))
          early.push(`${site} (wave ${wave}) before wave ${wave - 1}'s verdict`);
      },
      // The worker that sent the write is killed as the server applied it: its answer never arrives.
      // (A worker has one site at a time, so it leaves no other write in flight that verify could
      // not tell of: its successor reads this one back as applied.)
      answered: (method, path, user) => {
        if (method !== 'POST' || !path.endsWith('/update/system')) return;
        if (!killAt.has(++writes)) return;
        const victim = children.get(Number(/^worker-(\d+)$/.exec(user ?? '')?.[1]));
        if (victim && victim.exitCode === null && victim.signalCode === null) {
          kills++;
          victim.kill('SIGKILL');
        }
      },
    },
  );
  for (const site of failing)
    f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 400, site });
  const planned = await f.shard('--shards', String(WORKERS), '--assign', assign);
  run = planned.run;
  storeDir = f.store;
  const manifest = (known.manifest = readManifestFile(f.store, run));
  /**
   * One index, as an engine runs it: started again when it was killed, parked (75: the same command
   * goes on) or stopped before sending anything (69: safe to retry), until it ends otherwise.
   */
  const worker = async (index: number): Promise<{ code: number | null; out: string; restarts: number }> => {
    let out = '';
    for (let restarts = 0; ; restarts++) {
      const child = spawn(
        process.execPath,
        [
          CLI,
          'run',
          f.file,
          '--store',
          f.storeUrl,
          '--run',
          run,
          '--shard',
          `${index}/${WORKERS}`,
          '--shard-ttl',
          '5s',
          '--shard-wait',
          '20s',
        ],
        { env: cleanEnv({ ...f.env, SITE_USER: `worker-${index}` }), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.set(index, child);
      out += `--- attempt ${restarts + 1}\n`;
      child.stdout!.on('data', (c) => (out += c));
      child.stderr!.on('data', (c) => (out += c));
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on('close', (c, s) => resolve([c, s])),
      );
      if (process.env.SHARD_TEST_DEBUG)
        t.diagnostic(
          `worker ${index}: ${code ?? signal}${
            code === 1 || code === 69
              ? `\n${out
                  .split('\n')
                  .filter((l) => /enginectl:|lapsed|lease/.test(l))
                  .join('\n')}`
              : ''
          }`,
        );
      if (signal !== 'SIGKILL' && code !== 69 && code !== 75) return { code, out, restarts };
    }
  };
  const ends = await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i + 1)));
  t.diagnostic(`${kills} worker(s) killed, ${ends.reduce((n, e) => n + e.restarts, 0)} restart(s)`);
  assert.ok(kills > 0, 'a worker was killed');
  assert.deepEqual(early, [], 'no write of a wave before the verdict of the wave before it');
  return { f, run, ends, manifest };
}

for (const assign of ['static', 'queue'] as const)
  test(`every site written once over worker processes killed at random and restarted (${SITES} sites, ${WORKERS} workers, ${assign}): waves in order; the merged report is the single-process run's`, async (t) => {
    const { f, run, ends } = await fleetOverWorkers(
      t,
      assign,
      [],
      '0',
      [0.2, 0.4, 0.6, 0.8].map((x) => x * SITES),
    );
    for (const e of ends) assert.equal(e.code, 0, e.out.slice(-3000));
    const applied = f.applied('/update/system');
    const wrong = f.names.filter((s) => applied[s] !== 1).map((s) => `${s}: ${applied[s] ?? 0}`);
    if (wrong.length && process.env.SHARD_TEST_DEBUG)
      for (const e of ends)
        for (const line of e.out.split('\n'))
          if (wrong.some((w) => line.includes(w.split(':')[0]!))) t.diagnostic(line);
    assert.deepEqual(wrong, [], 'each site written exactly once');
    const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
    assert.equal(merged.code, 0, merged.stdout.slice(-2000) + merged.stderr);

    // The same release in one process, against a fleet of its own.
    const single = await shardFleet(
      t,
      SITES,
      `  over: site\n  waves: [[site-0001], 5%, rest]\n  max-parallel: 1\n  max-failures: 0`,
    );
    const one = await single.cli(['run', single.file]);
    assert.equal(one.code, 0, one.stderr);
    // A write a killed worker left in doubt and its successor's verify read as applied is reported as
    // such (a decision, never turned into a success): it stands for the success of the single run.
    const shape = (
      steps: {
        id: string | null;
        matrix: Record<string, unknown> | null;
        outcome: string;
        decision: { verdict?: string | null } | null;
      }[],
    ) =>
      steps
        .map(
          (s) =>
            `${s.id} ${String(s.matrix?.site)} ${s.outcome === 'skipped' && s.decision?.verdict === 'applied' ? 'success' : s.outcome}`,
        )
        .sort();
    assert.deepEqual(shape(merged.report!.steps), shape(one.report!.steps));
  });

test(`no site starts after a wave's failure budget is spent, anywhere, over queue workers killed at random (${SITES} sites, ${WORKERS} workers)`, async (t) => {
  const failing = Array.from({ length: 30 }, (_, i) => `site-${String(100 + i * 7).padStart(4, '0')}`);
  const { f, run, ends, manifest } = await fleetOverWorkers(t, 'queue', failing, '1%', [30, 70, 100, 120]);
  for (const e of ends) assert.equal(e.code, 1, e.out.slice(-3000));
  const wave = manifest.waves.length;
  const budget = manifest.budgets[wave - 1]!;
  const log = waveLog(f.store, run, wave);
  const spent = log.findIndex(
    (e, i) =>
      e.kind === 'ended' &&
      e.outcome === 'failure' &&
      log.slice(0, i + 1).filter((x) => x.kind === 'ended' && x.outcome === 'failure').length === budget + 1,
  );
  assert.ok(spent > 0, 'the budget was spent');
  assert.deepEqual(
    log.slice(spent + 1).filter((e) => e.kind === 'start'),
    [],
    'no start after the failure that spent it',
  );
  const started = new Set(
    [1, 2, 3]
      .flatMap((w) => waveLog(f.store, run, w))
      .filter((e) => e.kind === 'start')
      .map((e) => e.site),
  );
  const applied = f.applied('/update/system');
  const wrong = f.names.filter((s) => (applied[s] ?? 0) !== (started.has(s) && !failing.includes(s) ? 1 : 0));
  assert.deepEqual(wrong, [], 'started sites written once, the others never');
  assert.ok(started.size < SITES, 'some sites never started');
});
