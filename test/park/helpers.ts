// A fleet of sites served by one emulator over HTTP on 127.0.0.1 (each site a state of its own,
// one simulated clock the runs read too), a run store in a temporary directory, and the runs of
// a rollout that parks, goes on and is decided through the CLI (runCli).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';

export const PARKED = 75;

export const sitesOf = (n: number) => Array.from({ length: n }, (_, i) => `site-${String(i + 1).padStart(3, '0')}`);

/** The rollout's write: each site's system update (`step` adds lines to it). */
export const UPDATE_WRITE = `  - id: update
    name: "Update \${{ matrix.site }}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod }`;

export interface FleetOptions {
  /** The write step of the rollout (its YAML, as UPDATE_WRITE); `step` adds lines to it. */
  write?: string;
  /** Puts a server in front of the emulator (a gateway): the URL the pipeline's sites are under instead. */
  front?: (emulatorUrl: string) => Promise<string>;
}

export async function parkFleet(
  t: TestContext,
  n: number,
  rollout: string,
  extra = '',
  step = '',
  options: FleetOptions = {},
) {
  const clock = simulatedClock();
  const sites = new Sites({ now: clock.now });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const base = options.front ? await options.front(running.url) : running.url;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-park-'));
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
${names.map((s) => `  ${s}: { url: "${base}/sites/${s}", username: admin, password: admin }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
${extra}
rollout:
${rollout}
steps:
${options.write ?? UPDATE_WRITE}
${step}
  - id: alerts
    name: "No critical alert at \${{ matrix.site }}"
    uses: monitoring/alerts
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { fail-on: critical }
`,
  );
  const storeUrl = `file://${store}`;
  const env = { PROD_TOKEN: 'prod-token' };
  /** Each wait the runs asked of the clock (a timer's length), in order; the test's own advances of it are not among them. */
  const waits: number[] = [];
  const runClock = {
    now: clock.now,
    sleep: (ms: number, signal: AbortSignal) => (waits.push(ms), clock.sleep(ms, signal)),
  };
  let reports = 0;
  /** `enginectl ARGS` on this fleet's clock, with a JSON report of its own. */
  const cli = async (args: string[]) => {
    const json = join(dir, `report-${++reports}.json`);
    const r = await runCli(args[0] === 'run' ? [...args, '--report-json', json] : args, { env, clock: runClock });
    const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined;
    return { ...r, report };
  };
  const run = (...args: string[]) => cli(['run', file, '--store', storeUrl, ...args]);
  /** Writes each site's emulator applied, by site: what the request logs show. */
  const applied = (path: string) =>
    Object.fromEntries(
      [...sites.started()]
        .map(([name, site]) => [name, site.requests.filter((r) => r.applied && r.path.endsWith(path)).length] as const)
        .filter(([, count]) => count > 0),
    );
  /** The records the store holds for a run, in order. */
  const records = (id: string) => {
    const journal = join(store, 'runs', id, 'journal');
    return readdirSync(journal)
      .sort()
      .flatMap((seg) =>
        readFileSync(join(journal, seg), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown> & { t: string }),
      );
  };
  const decide = (id: string, ...args: string[]) => cli(['decide', '--store', storeUrl, '--run', id, ...args]);
  return { decide, clock, waits, sites, url: running.url, dir, file, storeUrl, env, run, cli, applied, records, names };
}

export const runIdOf = (stdout: string) => /^run: (\S+) in /m.exec(stdout)?.[1];

/** Cuts the run's journal in the store after the last record `keep` matches: what a SIGKILL just after it leaves. */
export function killAfter(storeDir: string, id: string, keep: (r: Record<string, unknown>) => boolean) {
  const dir = join(storeDir, 'runs', id, 'journal');
  const segs = readdirSync(dir).sort();
  const lines = segs.flatMap((s) =>
    readFileSync(join(dir, s), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ s, l })),
  );
  const last = lines.findLastIndex(({ l }) => keep(JSON.parse(l) as Record<string, unknown>));
  assert.ok(last >= 0, 'the record to cut after is there');
  const kept = lines.slice(0, last + 1);
  for (const s of segs) {
    const mine = kept.filter((k) => k.s === s).map((k) => k.l);
    if (mine.length === 0) writeFileSync(join(dir, s), '');
    else writeFileSync(join(dir, s), mine.join('\n') + '\n');
  }
  return lines.slice(last + 1).map(({ l }) => (JSON.parse(l) as { t: string }).t);
}

/** A fleet of `n` sites whose rollout parked on its first run: `site`'s system update refused (400) `times` times. */
export async function parkedOnRefusal(t: TestContext, rollout: string, site: string, times: number, n = 3) {
  const f = await parkFleet(t, n, rollout);
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site, status: 400, times });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  return { f, id: runIdOf(first.stdout)!, first };
}
