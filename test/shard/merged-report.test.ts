// The merged report of a sharded rollout is the single-process run's but for timings (issue 48):
// the same steps (each with its wave), the analysis rounds between waves, the instances a halt left
// not started and why, the same counts and the same words, for the same fleet and faults.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { analysisClock, shardFleet } from './helpers.ts';
import { runCli } from '../helpers/cli.ts';
import type { Report } from '../../src/report/index.ts';
import { assertClean } from '../helpers/secrets.ts';

/**
 * A report with what differs between two runs of the same release blanked: times, durations, the
 * temporary paths, how it was merged, and the pipeline's hash and the servers' port (each
 * fleet has an emulator of its own).
 */
function comparable(report: Report, dir: string): unknown {
  const walk = (v: unknown, key: string): unknown => {
    if (['startedAt', 'durationMs', 'earlierRunAt', 'since'].includes(key)) return 'T';
    if (typeof v === 'string')
      return v
        .split(dir)
        .join('DIR')
        .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'EMULATOR');
    if (Array.isArray(v)) return v.map((x) => walk(x, ''));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk({ ...report, merged: null, pipeline: { ...report.pipeline, sha256: 'HASH' } }, '');
}

async function oneAndMerged(
  t: TestContext,
  rollout: string,
  faults: string[],
  assign: 'static' | 'queue',
  edit: (pipeline: string) => string = (p) => p,
): Promise<{ one: unknown; merged: unknown; codes: [number | null, number | null] }> {
  const single = await shardFleet(t, 6, rollout, undefined, { faults });
  writeFileSync(single.file, edit(readFileSync(single.file, 'utf8')));
  const json = join(single.dir, 'one.json');
  // The analysis's intervals pass at once on the clock; every other wait is real.
  const one = await runCli(['run', single.file, '--report-json', json], { env: single.env, clock: analysisClock() });
  const f = await shardFleet(t, 6, rollout, undefined, { faults });
  writeFileSync(f.file, edit(readFileSync(f.file, 'utf8')));
  const run = (await f.shard('--shards', '3', '--assign', assign)).run;
  const clock = analysisClock();
  await Promise.all(
    ['1/3', '2/3', '3/3'].map((s) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', s, '--shard-ttl', '1h'], {
        env: f.env,
        clock,
      }),
    ),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const oneReport = JSON.parse(readFileSync(json, 'utf8')) as Report;
  // Its span covers every step it lists, an analysis round the last of them included.
  const span = Date.parse(merged.report!.startedAt) + merged.report!.durationMs;
  for (const step of merged.report!.steps)
    if (step.startedAt !== null)
      assert.ok(Date.parse(step.startedAt) + (step.durationMs ?? 0) <= span, `${step.name} ends within the run`);
  return {
    one: comparable(oneReport, single.dir),
    merged: comparable(merged.report!, f.dir),
    codes: [one.code, merged.code],
  };
}

const ANALYSED = '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m }';

/** The gate over two matrix keys: each site probed twice. */
const twoKeys = (pipeline: string) =>
  pipeline.replace(
    'uses: monitoring/alerts\n    matrix: { site:',
    'uses: monitoring/alerts\n    matrix: { probe: [a, b], site:',
  );

/** A second gate over two sites only: the canary (site-0003) is not among them. */
const secondGate = (pipeline: string) =>
  `${pipeline}  - id: alerts2
    name: "Second look at \${{ matrix.site }}"
    uses: monitoring/alerts
    matrix: { site: [site-0001, site-0002] }
    server: \${{ matrix.site }}
    with: { fail-on: critical }
`;

for (const [name, rollout, faults, code, edit] of [
  ['three waves that pass: each step with its wave', '  over: site\n  waves: [[site-0001], 50%, rest]', [], 0],
  ['an analysis that passes: its rounds, as steps of their own', ANALYSED, [], 0],
  [
    'an analysis that fails at the canary: its round, and every later site not started, as the halt left it',
    ANALYSED,
    ['GET /api/monitoring/v1/alerts site=site-0001 raise-alert=critical:disk_full'],
    1,
  ],
  [
    'a canary past its budget: the later sites not started, and why',
    '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0',
    ['POST /api/devops/v1/update/system site=site-0001 status=400'],
    1,
  ],
  [
    'a round that fails at one site of the two analysed, within its limit: every site checked in every round',
    '  over: site\n  waves: [2, rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m, failure-limit: 1 }',
    [
      // site-0001's own gate is answered as usual (a rule with no effect takes it); its first round's read fails.
      'GET /api/monitoring/v1/alerts site=site-0001 latency=1ms times=1',
      'GET /api/monitoring/v1/alerts site=site-0001 status=500 times=1',
    ],
    0,
  ],
  [
    'two gates over different sites, the canary in one only: each gate runs over the sites it has',
    '  over: site\n  waves: [[site-0003], 2, rest]\n  analysis: { gates: [alerts, alerts2], count: 1, interval: 2m }',
    [],
    0,
    secondGate,
  ],
  [
    "a canary not first in the inventory, a gate over two matrix keys, halted: the fleet's order, not the waves'",
    '  over: site\n  waves: [[site-0004], rest]\n  max-failures: 0',
    ['POST /api/devops/v1/update/system site=site-0004 status=400'],
    1,
    twoKeys,
  ],
] as const)
  for (const assign of ['static', 'queue'] as const)
    test(`the merged report of a sharded rollout is the single-process run's but for timings (${assign}): ${name}`, async (t) => {
      const { one, merged, codes } = await oneAndMerged(t, rollout, [...faults], assign, edit);
      assert.deepEqual(codes, [code, code], 'the run and the merge exit alike');
      assert.deepEqual(merged, one);
    });

test("no secret reaches the run store's planned instances or an analysis's rounds: a step name that reads one is masked there, as in the report", async (t) => {
  const f = await shardFleet(t, 4, ANALYSED, undefined, {
    faults: ['GET /api/monitoring/v1/alerts site=site-0001 raise-alert=critical:disk_full'],
  });
  const secret = 'tok-7f3a9c2e51b8d4';
  f.env.RELEASE_TAG = secret;
  // Both steps name a secret: the update (a planned instance the halt leaves) and the gate (an analysis round).
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(/^( +)name: "([^"]*)"/gm, '$1name: "$2 (${{ secrets.RELEASE_TAG }})"'),
  );
  const run = (await f.shard('--shards', '2')).run;
  const clock = analysisClock();
  await Promise.all(
    ['1/2', '2/2'].map((s) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', s, '--shard-ttl', '1h'], {
        env: f.env,
        clock,
      }),
    ),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  const names = merged.report!.steps.map((s) => s.name);
  assert.ok(names.includes('Update site-0002 (***)'), names.join('\n'));
  assert.ok(
    names.includes('No critical alert at site-0001 (***) (analysis after wave 1, round 1/2)'),
    names.join('\n'),
  );
  const keys = readdirSync(f.store, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const read = keys.map((e) => join(e.parentPath, e.name));
  assert.ok(read.some((p) => p.endsWith('/instances')) && read.some((p) => p.includes('/rounds/')), read.join('\n'));
  for (const path of read) assertClean(path, readFileSync(path, 'latin1'), [secret]);
});

test("a store that refuses the analysis's rounds costs the merged report its rounds, not the rollout: the verdict is written, the worker says so", async (t) => {
  const f = await shardFleet(t, 4, ANALYSED);
  const run = (await f.shard('--shards', '2')).run;
  // A file where the rounds' folder goes: the store cannot create the analyst's key.
  mkdirSync(join(f.store, 'shards', run, 'waves', '1'), { recursive: true });
  writeFileSync(join(f.store, 'shards', run, 'waves', '1', 'rounds'), 'in the way');
  const clock = analysisClock();
  const workers = await Promise.all(
    ['1/2', '2/2'].map((s) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', s, '--shard-ttl', '1h'], {
        env: f.env,
        clock,
      }),
    ),
  );
  for (const w of workers) assert.equal(w.code, 0, w.stdout + w.stderr);
  assert.match(
    workers.map((w) => w.stdout + w.stderr).join(''),
    /wave 1: the analysis's rounds were not kept for the merged report: /,
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.deepEqual(merged.report?.rollout?.waves[0]?.analysis, {
    passed: true,
    rounds: 2,
    failedRounds: 0,
    text: '2 round(s) of alerts held',
  });
  assert.equal(merged.report?.steps.filter((s) => s.round !== null).length, 0, 'no rounds listed');
  assert.equal(merged.report?.counts.success, 8);
});
