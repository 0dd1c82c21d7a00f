// A sharded site parked for its window, gone on with once it opened by a worker that died after its
// write left (its journal: the park, then a `send` with no answer): its run still reads parked.
// Taken over in a wave whose failures passed its budget meanwhile, its call in doubt is read back
// (verify), as any takeover does: the worker does not say "nothing sent" of a site whose write went
// out, a write applied is not sent again, and report --merge --store names the site as it stands.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, windowDoubtFleet } from './helpers.ts';

const OPENS = '2027-03-01T22:00:00.000Z';
/** classes/update's PATCH, which verify reads back (applied, or not applied once its `longest:` passed). */
const UPDATE = '/api/classes/v1/classes/12/entities/2001';

/**
 * windowDoubtFleet's fleet (helpers.ts: three sites, waves [[site-0001, site-0002], rest], a budget
 * of 0, site-0002's writes only in its window from 22:00 UTC; shard 1/2 owns site-0002 and
 * site-0003, 2/2 site-0001). `dies`: where site-0002's first PATCH leaves its worker for good:
 * `applied`, its answer held by a gateway once the server applied it; `unapplied`, held by the
 * server (the emulator's `hang`), never applied.
 */
async function fleet(t: TestContext, dies: 'applied' | 'unapplied') {
  // applied: the first answer to site-0002's PATCH held by the gateway, the change made.
  let held!: () => void;
  let release!: () => void;
  const answerHeld = new Promise<void>((resolve) => (held = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  t.after(release);
  let first = true;
  const {
    f,
    run,
    worker,
    patches: site2,
  } = await windowDoubtFleet(t, {
    hang: dies === 'unapplied',
    hooks: {
      after: (method, path) => {
        if (dies !== 'applied' || !first || method !== 'PATCH' || !path.endsWith(`/sites/site-0002${UPDATE}`)) return;
        first = false;
        held();
        return released;
      },
    },
  });

  // Shard 1/2 at noon: site-0002's window is closed, its run parks for it.
  const parked = await worker('2027-03-01T12:00:00Z', '1/2');
  assert.equal(parked.code, 75, parked.out);
  assert.match(parked.out, /parked: waiting for site site-0002's window/);
  assert.deepEqual(site2(), { sent: 0, applied: 0 });

  // Once the window opened, the same command goes on with the site: its PATCH leaves, and its
  // worker is gone from there on (never answered: its journal's `send` has no answer; its lease
  // lapses at 23:00 on the run's clock).
  const stop = new AbortController();
  const dead = worker(OPENS, '1/2', stop.signal);
  t.after(() => stop.abort());
  if (dies === 'applied') await answerHeld;
  // unapplied: the server holds it, unanswered (its request log has it, not applied).
  else while (site2().sent === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(site2(), { sent: 1, applied: dies === 'applied' ? 1 : 0 });

  // Shard 2/2: site-0001's update refused (409): the wave's budget of 0 is passed, the rollout halts at wave 1.
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, status: 409, site: 'site-0001', times: 1 });
  const other = await worker('2027-03-01T22:10:00Z', '2/2');
  assert.equal(other.code, 1, other.out);
  assert.match(other.out, /the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0/);

  // Shard 1/2 again at 23:30 (the window still open): it takes site-0002's run over, its wave halting.
  const again = await worker('2027-03-01T23:30:00Z', '1/2');
  const merged = join(f.dir, 'merged.json');
  const read = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', merged], {
    env: f.env,
    clock: simulatedClock(Date.parse('2027-03-01T23:40:00Z')),
  });
  const report = JSON.parse(readFileSync(merged, 'utf8')) as Report;
  // The worker gone stops (its lease was taken over: nothing more of it reaches the store or the server).
  const counted = site2();
  stop.abort();
  const gone = await dead;
  assert.equal(gone.code, 69, gone.out);
  assert.match(gone.out, /its lease lapsed\b/);
  assert.deepEqual(site2(), counted, 'the worker gone sent nothing more');
  return { again, read: { ...read, out: read.stdout + read.stderr, report }, site2: counted };
}

test("a site parked for its window whose continue died with its write applied, taken over once its wave's failures passed its budget: its write is read back (applied), not sent again, and neither the worker nor the merged report says nothing was sent", async (t) => {
  const { again, read, site2 } = await fleet(t, 'applied');
  assert.equal(again.code, 1, again.out);
  assert.doesNotMatch(again.out, /site-0002: .*nothing sent/, again.out);
  assert.match(again.out, /verify: "Update site-0002": applied: /);
  assert.match(again.out, /^wave 1: halted: 1 site\(s\) failed \(site-0001\), over the budget of 0$/m);
  // Sent once, applied once: the write in doubt read back applied is not sent again.
  assert.deepEqual(site2, { sent: 1, applied: 1 });
  // The merged report names the site as it stands: its write applied (read back), the site ended, not parked nor in doubt.
  assert.equal(read.code, 1, read.out);
  assert.match(read.out, /✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\)/);
  const steps = read.report.steps.filter((s) => s.matrix?.site === 'site-0002');
  assert.deepEqual(
    steps.map((s) => [s.id, s.outcome, s.decision?.verdict ?? null]),
    [
      ['update', 'skipped', 'applied'],
      ['alerts', 'success', null],
    ],
    read.out,
  );
  assert.equal(read.report.parked, null);
});

test("a site parked for its window whose continue died with its write unapplied, taken over once its wave's failures passed its budget: its write is read back (not applied) and not sent in the wave the rollout halts at; the site stays parked for its window", async (t) => {
  const { again, read, site2 } = await fleet(t, 'unapplied');
  assert.equal(again.code, 1, again.out);
  assert.match(again.out, /verify: "Update site-0002": not-applied: /);
  assert.match(
    again.out,
    /^site site-0002: its run \S+ waits for its window, and its wave's failures passed its budget: its call in doubt was read back not applied: not sent again \(the rollout halts at its wave\)$/m,
  );
  assert.doesNotMatch(again.out, /✔ site site-0002/);
  assert.match(again.out, /^wave 1: halted: 1 site\(s\) failed \(site-0001\), over the budget of 0$/m);
  // Sent once (by the worker gone, never applied), not again: nothing of the site reaches the server in the wave the rollout halted at.
  assert.deepEqual(site2, { sent: 1, applied: 0 });
  // The merged report: the rollout halted at wave 1 (site-0001's failure alone), the site as the
  // store holds it: its call in doubt (not ended, nothing recorded since), the step after it not started.
  assert.equal(read.code, 1, read.out);
  assert.match(read.out, /✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\)/);
  assert.match(read.out, /^✖ site=site-0002: cancelled \(2 step run\(s\): 2 cancelled, 1 in doubt\)/m);
  assert.deepEqual(read.report.rollout?.waves[0]?.failed, ['site-0001']);
  const steps = read.report.steps.filter((s) => s.matrix?.site === 'site-0002');
  assert.deepEqual(
    steps.map((s) => [s.id, s.outcome, s.error?.code, s.inDoubt?.method ?? null, s.decision ?? null]),
    [
      ['update', 'cancelled', 'IN_DOUBT', 'PATCH', null],
      ['alerts', 'cancelled', 'WINDOW_PARKED', null, null],
    ],
    read.out,
  );
});

test("a site whose retry its window refused (its first PATCH in doubt, never applied), parked, its wave's failures passing its budget meanwhile: taken over once the window opened, its call is read back (not applied) and not sent in the wave the rollout halted at", async (t) => {
  const f = await shardFleet(t, 3, '  over: site\n  waves: [[site-0002, site-0001], rest]\n  max-failures: 0');
  // Each site's write a classes/update, retried 30 minutes later when in doubt; site-0002's only in a
  // 20-minute window from 22:00 UTC, its first PATCH cut before the server handled it (in doubt, not
  // applied), its retry past the window; site-0001's refused (409) every time.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace(
        '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
        '    uses: classes/update\n    retry: { attempts: 3, delay: 30m, in-doubt: retry }\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n',
      )
      .replace(
        '\nsteps:\n',
        `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 20m\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
      ),
  );
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, reset: 'before', site: 'site-0002', times: 1 });
  f.sites.faults.add({ method: 'PATCH', path: UPDATE, status: 409, site: 'site-0001' });
  const run = (await f.shard('--shards', '1')).run;
  const site2 = () => {
    const log = f.sites.started().get('site-0002')?.requests ?? [];
    const patches = log.filter((r) => r.method === 'PATCH' && r.path === UPDATE);
    return { sent: patches.length, applied: patches.filter((r) => r.applied).length };
  };
  const worker = (at: string) => {
    // The sites' clock moves with the test's: the time a worker starts at is the server's too.
    const clock = simulatedClock(Date.parse(at));
    f.server.now = clock.now;
    const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'];
    return runCli([...args, '--shard-wait', '30m', '--shard-ttl', '24h'], { env: f.env, clock }).then((r) => ({
      ...r,
      out: r.stdout + r.stderr,
    }));
  };
  const first = await worker(OPENS);
  assert.equal(first.code, 1, first.out);
  assert.match(first.out, /⏸ site site-0002 \(wave 1\): parked for its window/);
  assert.match(first.out, /^wave 1: halted: 1 site\(s\) failed \(site-0001\), over the budget of 0$/m);
  assert.deepEqual(site2(), { sent: 1, applied: 0 });
  // Its worker killed before it wrote the verdict: the site's run is taken over in a wave past its budget.
  rmSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'));
  const again = await worker('2027-03-02T22:00:00Z');
  assert.equal(again.code, 1, again.out);
  assert.match(again.out, /verify: "Update site-0002": not-applied: /);
  assert.match(
    again.out,
    /^site site-0002: its run \S+ waits for its window, and its wave's failures passed its budget: its call in doubt from before its park was read back \(not applied\): not gone on with, nothing sent \(the rollout halts at its wave\)$/m,
  );
  assert.doesNotMatch(again.out, /✔ site site-0002/);
  assert.deepEqual(site2(), { sent: 1, applied: 0 });
});
