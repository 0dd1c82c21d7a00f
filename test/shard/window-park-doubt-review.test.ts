// Review of the window park with a call in doubt in a wave past its budget (window-park-doubt.test.ts):
// a site parked for its window when its wave's budget was spent, its call from before the park
// read back applied, sends no later write in that wave (one process's rollout halts there); and what
// the store's merge tells the operator to do of a call a takeover read back not applied and left.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { shardKeys, shardOf } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, windowDoubtFleet } from './helpers.ts';

const OPENS = '2027-03-01T22:00:00.000Z';
const UPDATE = '/api/classes/v1/classes/12/entities/2001';
/** A later write of the site (entity 2002), after its update in doubt. */
const LATER = '/api/classes/v1/classes/12/entities/2002';

/**
 * window-park-doubt.test.ts's fleet (windowDoubtFleet, helpers.ts): three sites, waves
 * [[site-0001, site-0002], rest], a budget of 0, site-0002's writes only in its window from 22:00
 * UTC (6h); shard 1/2 owns site-0002 and site-0003. Parked at noon, site-0002 is gone on with at 22:00 by a worker that dies there, its
 * PATCH held by the server (never applied); site-0001 fails at 22:10, spending the budget.
 */
async function unappliedFleet(t: TestContext, longest = '1m') {
  const { f, run, worker, patches } = await windowDoubtFleet(t, { longest, hang: true });
  let reports = 0;
  const merged = async (at: string) => {
    const json = join(f.dir, `merged-${++reports}.json`);
    const r = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
      env: f.env,
      clock: simulatedClock(Date.parse(at)),
    });
    return { ...r, out: r.stdout + r.stderr, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
  };

  const parked = await worker('2027-03-01T12:00:00Z', '1/2');
  assert.equal(parked.code, 75, parked.out);
  const stop = new AbortController();
  const dead = worker(OPENS, '1/2', stop.signal);
  t.after(() => stop.abort());
  while (patches().sent === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, status: 409, site: 'site-0001', times: 1 });
  const other = await worker('2027-03-01T22:10:00Z', '2/2');
  assert.equal(other.code, 1, other.out);
  assert.match(other.out, /the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0/);
  const finish = async () => {
    stop.abort();
    const gone = await dead;
    assert.equal(gone.code, 69, gone.out);
  };
  return { worker, patches, merged, finish };
}

test("a site whose retry its window refused (its first PATCH in doubt, applied), parked when its wave's budget was spent: taken over in that wave, its later write is not sent (one process's rollout halts there, the site's steps left)", async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [[site-0002, site-0001], rest]\n  max-failures: 0');
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace(
        '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
        '    uses: classes/update\n    retry: { attempts: 3, delay: 30m, in-doubt: retry }\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n' +
          '  - id: later\n    name: "Later write at ${{ matrix.site }}"\n    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2002, fields: { iemailaddress: later@example.com } }\n',
      )
      .replace(
        '\nsteps:\n',
        `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 20m\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
      ),
  );
  // site-0002's first PATCH applied, its answer a gateway's 504 (in doubt); its retry, 30 minutes on, past its window.
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, gateway: 504, site: 'site-0002', times: 1 });
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, status: 409, site: 'site-0001' });
  const run = (await f.shard('--shards', '1')).run;
  const patches = (path: string) => {
    const log = f.sites.started().get('site-0002')?.requests ?? [];
    const sent = log.filter((r) => r.method === 'PATCH' && r.path === path);
    return { sent: sent.length, applied: sent.filter((r) => r.applied).length };
  };
  const worker = (at: string) =>
    runCli(
      [
        'run',
        f.file,
        '--store',
        f.storeUrl,
        '--run',
        run,
        '--shard',
        '1/1',
        '--shard-wait',
        '30m',
        '--shard-ttl',
        '24h',
      ],
      {
        env: f.env,
        clock: simulatedClock(Date.parse(at)),
      },
    ).then((r) => ({ ...r, out: r.stdout + r.stderr }));
  const first = await worker(OPENS);
  assert.equal(first.code, 1, first.out);
  assert.match(first.out, /⏸ site site-0002 \(wave 1\): parked for its window/);
  assert.match(first.out, /^wave 1: halted: 1 site\(s\) failed \(site-0001\), over the budget of 0$/m);
  assert.deepEqual(
    [patches(UPDATE), patches(LATER)],
    [
      { sent: 1, applied: 1 },
      { sent: 0, applied: 0 },
    ],
  );
  // Its worker killed before it wrote the verdict: the site's run is taken over in a wave past its budget.
  rmSync(join(f.store, shardKeys(run).verdict(1)));
  const again = await worker('2027-03-02T22:00:00Z');
  assert.equal(again.code, 1, again.out);
  assert.match(again.out, /verify: "Update site-0002": applied: /);
  assert.deepEqual(patches(UPDATE), { sent: 1, applied: 1 });
  // Parked for its window when its wave's budget was spent: nothing more of it is sent in the wave the rollout halts at.
  assert.deepEqual(patches(LATER), { sent: 0, applied: 0 }, again.out);
});

test("unapplied: the merged report's hint for the call read back not applied does not say that running the index again sends it (it does not: the rollout halted)", async (t) => {
  const { worker, patches, merged, finish } = await unappliedFleet(t);
  const again = await worker('2027-03-01T23:30:00Z', '1/2');
  assert.equal(again.code, 1, again.out);
  assert.match(again.out, /its call in doubt was read back not applied: not sent again/);
  const read = await merged('2027-03-01T23:40:00Z');
  const update = read.report.steps.find((s) => s.matrix?.site === 'site-0002' && s.id === 'update');
  assert.equal(update?.error?.code, 'IN_DOUBT', read.out);
  // Running the index again, as the hint says: nothing read back, nothing sent.
  const third = await worker('2027-03-01T23:50:00Z', '1/2');
  await finish();
  assert.equal(third.code, 1, third.out);
  assert.doesNotMatch(third.out, /verify:/, third.out);
  assert.deepEqual(patches(), { sent: 1, applied: 0 });
  assert.doesNotMatch(update?.error?.hint ?? '', /sends again only what was not applied/, update?.error?.hint ?? '');
  assert.match(
    update?.error?.hint ?? '',
    /^the rollout halted at its wave: no worker takes the site over, nothing of it is sent again; check on the server \(enginectl verify --store URL --run \S+ reads back any call in doubt\)$/,
  );
});

test('a site parked for its window whose continue died after its write was answered (applied, no call in doubt), taken over in a wave past its budget: the worker does not say nothing was sent', async (t) => {
  assert.deepEqual(
    ['site-0001', 'site-0002', 'site-0003'].map((s) => shardOf(s, 2)),
    [1, 0, 0],
  );
  // The continue's next step (its alerts' first GET) held at the gateway for good: its worker dies there.
  let held!: () => void;
  let release!: () => void;
  const atAlerts = new Promise<void>((resolve) => (held = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  t.after(release);
  let parkedYet = false;
  let holding = false;
  const f = await shardFleet(t, 3, '  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 0', {
    before: (method, path) => {
      if (!parkedYet || holding || method !== 'GET' || !path.startsWith('/sites/site-0002/api/monitoring/')) return;
      holding = true;
      held();
      return released;
    },
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace(
        '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
        `    uses: classes/update\n    matrix: { site: "\${{ vars.sites }}" }\n    server: \${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n`,
      )
      .replace(
        '\nsteps:\n',
        `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 6h\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
      ),
  );
  const run = (await f.shard('--shards', '2')).run;
  const worker = async (at: string, spec: string, signal?: AbortSignal) => {
    const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec];
    const r = await runCli([...args, '--shard-wait', '30m', '--shard-ttl', '1h'], {
      env: f.env,
      clock: simulatedClock(Date.parse(at)),
      ...(signal ? { signal } : {}),
    });
    return { ...r, out: r.stdout + r.stderr };
  };
  const patches = () => {
    const log = f.sites.started().get('site-0002')?.requests ?? [];
    const sent = log.filter((r) => r.method === 'PATCH' && r.path === UPDATE);
    return { sent: sent.length, applied: sent.filter((r) => r.applied).length };
  };
  const parked = await worker('2027-03-01T12:00:00Z', '1/2');
  assert.equal(parked.code, 75, parked.out);
  parkedYet = true;
  const stop = new AbortController();
  const dead = worker(OPENS, '1/2', stop.signal);
  t.after(() => stop.abort());
  await atAlerts;
  // Its write answered and applied, its answer recorded: no call of it is in doubt.
  assert.deepEqual(patches(), { sent: 1, applied: 1 });
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, status: 409, site: 'site-0001', times: 1 });
  const other = await worker('2027-03-01T22:10:00Z', '2/2');
  assert.equal(other.code, 1, other.out);
  const again = await worker('2027-03-01T23:30:00Z', '1/2');
  stop.abort();
  release();
  await dead;
  assert.equal(again.code, 1, again.out);
  assert.deepEqual(patches(), { sent: 1, applied: 1 });
  // Its write went out and was applied: the worker says nothing of "nothing sent".
  assert.doesNotMatch(again.out, /site-0002: .*nothing sent/, again.out);
  // Under way when the budget was spent (its write applied): it goes on to its end, as one whose call in doubt is read back applied.
  assert.match(again.out, /^✔ site site-0002 \(wave 1\): success/m, again.out);
});

test("unapplied, its step's longest: not passed at the takeover (verify cannot tell), its wave past its budget: the site fails, nothing sent again", async (t) => {
  const { worker, patches, finish } = await unappliedFleet(t, '2h');
  const again = await worker('2027-03-01T23:30:00Z', '1/2');
  await finish();
  assert.equal(again.code, 1, again.out);
  assert.match(
    again.out,
    /^✖ site site-0002: its run \S+ cannot go on: cannot resume: verify could not settle an in-doubt call: .*cannot-tell.*; it counts as failed in its wave/m,
  );
  assert.doesNotMatch(again.out, /waits for its window, and its wave's failures passed its budget/);
  assert.deepEqual(patches(), { sent: 1, applied: 0 });
});
