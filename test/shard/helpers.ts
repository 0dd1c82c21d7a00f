// A fleet of sites served by one emulator over HTTP on 127.0.0.1 (each site a state of its own),
// a run store in a temporary directory, and the workers of a sharded run: through the CLI in this
// process (runCli), or as processes of the CLI's source that a test kills.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { serve, Sites } from '../../src/emulator/index.ts';
import { parseFault } from '../../src/emulator/faults/index.ts';
import type { Report } from '../../src/report/index.ts';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { spawn } from 'node:child_process';
import { gatewayInFront } from '../helpers/gateway.ts';
import { realClock, simulatedClock } from '../../src/app/clock.ts';
import { shardOf } from '../../src/shard/manifest.ts';
import { ALL_SCOPES } from '../../src/api/scopes.ts';

/** The user of a Basic authorization header. */
const userOf = (header: string | undefined) =>
  header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0] : undefined;

export const sitesOf = (n: number) => Array.from({ length: n }, (_, i) => `site-${String(i + 1).padStart(4, '0')}`);

export interface FleetHooks {
  /** Sees each request once the server answered it, before the answer goes on (a gateway in front), and who sent it (the user it authenticated as). */
  answered?: (method: string, path: string, user: string | undefined) => void;
  /** Sees each request before it reaches the server. */
  before?: (method: string, path: string) => void | Promise<void>;
  /** Sees each request once the server answered it (the change made); a promise it returns holds the answer until it settles. */
  after?: (method: string, path: string) => void | Promise<void>;
}

/** A site's password, a secret of its own (PW_SITE_0001): a job is given only its sites'. */
export const passwordOf = (site: string) => `PW_${site.toUpperCase().replace(/-/g, '_')}`;

export async function shardFleet(
  t: TestContext,
  n: number,
  rollout: string,
  hooks?: FleetHooks,
  options: {
    passwords?: boolean;
    faults?: string[];
    /** Another store than a directory of the test's own (s3://... of RGW), and what it needs in the environment. */
    store?: { url: string; env: Record<string, string> };
  } = {},
) {
  // Each worker may call as a user of its own (SITE_USER, a secret: the pipeline's hash is the same), so a test can tell who sent a request.
  const users = Array.from({ length: 64 }, (_, i) => ({
    name: `worker-${i + 1}`,
    password: 'admin',
    scopes: new Set(ALL_SCOPES),
  }));
  // Workers on real clocks resume a killed one's sites within seconds: monitoring shows an update at
  // once here (the subject is the shards' protocol; test/emulator/monitoring-refresh.test.ts the lag).
  // The sites' clock (their answers' Date: the server's clock verify counts "since the call" on): the
  // real one, unless a test moves it to the clock its workers run on (`server.now = clock.now`).
  const server = { now: () => Date.now() };
  const sites = new Sites({
    users,
    faults: (options.faults ?? []).map(parseFault),
    monitoringRefreshMs: 0,
    now: () => server.now(),
  });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const url = hooks
    ? await gatewayInFront(
        t,
        running.url,
        (m, p, headers) => (hooks.answered?.(m, p, userOf(headers.authorization)), undefined),
        hooks.before,
        hooks.after,
      )
    : running.url;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-shard-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const names = sitesOf(n);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet release
vars:
  sites: [${names.join(', ')}]
servers:
${names.map((s) => `  ${s}: { url: "${url}/sites/${s}", username: "\${{ secrets.SITE_USER }}", password: ${options.passwords ? `"\${{ secrets.${passwordOf(s)} }}"` : 'admin'} }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
rollout:
${rollout}
steps:
  - id: update
    name: "Update \${{ matrix.site }}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod }
  - id: alerts
    name: "No critical alert at \${{ matrix.site }}"
    uses: monitoring/alerts
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { fail-on: critical }
`,
  );
  const storeUrl = options.store?.url ?? `file://${store}`;
  const env: Record<string, string> = {
    ...options.store?.env,
    PROD_TOKEN: 'prod-token',
    SITE_USER: 'admin',
    ...(options.passwords ? Object.fromEntries(names.map((s) => [passwordOf(s), 'admin'])) : {}),
  };
  let reports = 0;
  const cli = async (args: string[]) => {
    const json = join(dir, `report-${++reports}.json`);
    const r = await runCli(args[0] === 'run' || args[0] === 'report' ? [...args, '--report-json', json] : args, {
      env,
    });
    const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined;
    return { ...r, report };
  };
  /** enginectl shard: the run's id and the fan-out it printed. */
  const shard = async (...args: string[]) => {
    const r = await cli(['shard', file, '--store', storeUrl, ...args]);
    const run = /^run (\S+) in /m.exec(r.stderr)?.[1];
    if (r.code !== 0 || !run) throw new Error(`enginectl shard failed: ${r.stdout}${r.stderr}`);
    return { ...r, run };
  };
  const worker = (run: string, spec: string, ...args: string[]) =>
    cli(['run', file, '--store', storeUrl, '--run', run, '--shard', spec, ...args]);
  /** Writes each site's emulator applied, by site: what the request logs show. */
  const applied = (path: string) =>
    Object.fromEntries(
      [...sites.started()]
        .map(([name, site]) => [name, site.requests.filter((r) => r.applied && r.path.endsWith(path)).length] as const)
        .filter(([, count]) => count > 0),
    );
  return { sites, server, url: running.url, dir, file, store, storeUrl, env, cli, shard, worker, applied, names };
}

type WaveEvent = { kind: string; site: string; worker: number; outcome?: string };

/**
 * Two sharded runs of one 4-site fleet, each planned with 2 shards and both workers run: their
 * ids and the workers' JSON reports (a1, a2; b1, b2), for merges of one run's and the other's.
 */
export async function twoShardedRuns(t: TestContext) {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  const worker = (run: string, spec: string, json: string) =>
    runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--report-json', json], {
      env: f.env,
    });
  const both = async (run: string, prefix: string) => {
    const jsons = [1, 2].map((i) => join(f.dir, `${prefix}${i}.json`));
    for (const r of await Promise.all(jsons.map((json, i) => worker(run, `${i + 1}/2`, json))))
      assert.equal(r.code, 0, r.stdout + r.stderr);
    return jsons;
  };
  const runA = (await f.shard('--shards', '2')).run;
  const a = await both(runA, 'a');
  const runB = (await f.shard('--shards', '2', '--new-run')).run;
  assert.notEqual(runA, runB);
  return { f, runA, runB, a, b: await both(runB, 'b') };
}
/**
 * The events of a wave's log, in order, as the store holds them: a start that records the success
 * of the lane's site before it (its `ended`) is that end, then the start.
 */
export function waveLog(store: string, run: string, wave: number): WaveEvent[] {
  const dir = join(store, 'shards', run, 'waves', String(wave), 'log');
  return readdirSync(dir)
    .filter((k) => /^[0-9]{8}$/.test(k))
    .sort()
    .flatMap((k) => {
      const e = JSON.parse(readFileSync(join(dir, k), 'utf8')) as WaveEvent & {
        ended?: { site: string; outcome: string };
      };
      const { ended, ...entry } = e;
      return ended ? [{ kind: 'ended', site: ended.site, worker: e.worker, outcome: ended.outcome }, entry] : [entry];
    });
}

/** A worker process of the built CLI; its exit and what it printed. */
/**
 * The fleet's update step retried (3 attempts, 30 minutes apart, in doubt sent again), and its
 * first POST at `site` answered by a gateway's 504 after the API applied it: a worker then waits
 * in the retry's wait, its write in doubt, for as long as a test needs.
 */
export function retryingUpdate(f: { file: string; sites: Sites }, site = 'site-0001'): void {
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    uses: update/system\n',
      '    uses: update/system\n    retry: { attempts: 3, delay: 30m, in-doubt: retry }\n',
    ),
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', gateway: 504, site, times: 1 });
}

export function workerProcess(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const done = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
  return { child, done };
}

/**
 * The workers' clock of a test of an analysis: its waits of 2 minutes or more (the analysis's
 * intervals, past the monitoring refresh) pass at once, `offset` ms ahead of the real clock (a
 * lease of an hour outlives them); every other wait (a barrier's polls, a heartbeat) is real.
 */
export function analysisClock(offset = 0) {
  const real = realClock();
  let skipped = offset;
  return {
    now: () => real.now() + skipped,
    sleep: (ms: number, signal: AbortSignal) =>
      ms >= 120_000 ? Promise.resolve(void (skipped += ms)) : real.sleep(ms, signal),
  };
}

/** classes/update's PATCH of entity 2001, which verify reads back (applied, or not applied once its `longest:` passed). */
const WINDOW_UPDATE = '/api/classes/v1/classes/12/entities/2001';

/**
 * The fleet of window-park-doubt*.test.ts: three sites in two waves [[site-0001, site-0002], rest]
 * (a budget of 0), each updating entity 2001 (classes/update, with its `longest:`, 1m by default),
 * site-0002's writes only in its nightly window from 22:00 UTC (6 hours); planned in two static
 * shards: 1/2 owns site-0002 and site-0003, 2/2 site-0001. `hooks`: a gateway in front of the
 * sites (shardFleet's); `hang`: site-0002's first PATCH held by the server, unanswered and never
 * applied. Gives the fleet, its run, a worker of a shard at a time on a simulated clock (its JSON
 * report written), and the PATCHes of site-0002's update the server received and applied.
 */
export async function windowDoubtFleet(
  t: TestContext,
  options: { longest?: string; hooks?: FleetHooks; hang?: boolean } = {},
) {
  assert.deepEqual(
    ['site-0001', 'site-0002', 'site-0003'].map((s) => shardOf(s, 2)),
    [1, 0, 0],
  );
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 0',
    options.hooks,
  );
  if (options.hang)
    f.sites.faults.add({ method: 'PATCH', path: WINDOW_UPDATE, hang: true, site: 'site-0002', times: 1 });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace(
        '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
        `    uses: classes/update\n    matrix: { site: "\${{ vars.sites }}" }\n    server: \${{ matrix.site }}\n    longest: ${options.longest ?? '1m'}\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n`,
      )
      .replace(
        '\nsteps:\n',
        `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 6h\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
      ),
  );
  const run = (await f.shard('--shards', '2')).run;
  let reports = 0;
  const worker = async (at: string, spec: string, signal?: AbortSignal) => {
    const json = join(f.dir, `worker-${++reports}.json`);
    const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec];
    // The sites' clock moves with the test's: the time a worker starts at is the server's too.
    const clock = simulatedClock(Date.parse(at));
    f.server.now = clock.now;
    const r = await runCli([...args, '--shard-wait', '30m', '--shard-ttl', '1h', '--report-json', json], {
      env: f.env,
      clock,
      ...(signal ? { signal } : {}),
    });
    return { ...r, out: r.stdout + r.stderr };
  };
  const patches = () => {
    const log = f.sites.started().get('site-0002')?.requests ?? [];
    const sent = log.filter((r) => r.method === 'PATCH' && r.path === WINDOW_UPDATE);
    return { sent: sent.length, applied: sent.filter((r) => r.applied).length };
  };
  return { f, run, worker, patches };
}
