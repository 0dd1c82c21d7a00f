// A queue worker that finds another worker's lease past its expiry on its own clock confirms the
// lapse before it takes the site over (store/lapse.ts): it waits, up to that lease's ttl. A worker
// interrupted (SIGTERM, SIGINT) meanwhile stops there: it takes nothing over and sends nothing
// after the signal, as at any other wait of a worker. That wait is a wait of its --shard-wait (the
// job's waiting in all): a worker whose budget it spends stops there too, takes nothing over, and parks.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

const T0 = Date.parse('2027-03-01T12:00:00Z');

/** Two queue workers' run; worker 1 claims site-0001 and hangs there, its write held by the server (unanswered). */
async function firstHangs(t: TestContext) {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', hang: true, site: 'site-0001', times: 1 });
  const args = (spec: string) => ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec];
  const firstStop = new AbortController();
  t.after(() => firstStop.abort());
  const first = runCli(args('1/2'), { env: f.env, clock: simulatedClock(T0), signal: firstStop.signal });
  t.after(() => first);
  while (!(f.sites.started().get('site-0001')?.requests ?? []).some((r) => r.path.endsWith('/update/system')))
    await new Promise((resolve) => setTimeout(resolve, 10));
  return { f, args };
}

test("a queue worker interrupted while it confirms a gone worker's lapse on its clock stops there: it takes neither that worker's lease nor its site over", async (t) => {
  const { f, args } = await firstHangs(t);
  // The first worker's lease queue: a waiter's ticket there is the second worker confirming its lapse.
  const leases = join(f.store, 'leases');
  const confirming = () =>
    readdirSync(leases).some((l) => l.endsWith('.shard-0') && existsSync(join(leases, l, 'queue')));
  // Worker 2, its clock 61s on (the first's lease of 60s past its expiry on it): each of its sleeps
  // passes at once, but the first while it confirms the lapse, which holds until it is interrupted.
  const base = simulatedClock(T0 + 61_000);
  let waiting!: () => void;
  const confirmingNow = new Promise<void>((resolve) => (waiting = resolve));
  const stop = new AbortController();
  const clock: Clock = {
    now: base.now,
    sleep: async (ms, signal) => {
      if (confirming()) {
        waiting();
        if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener('abort', resolve));
      }
      if (signal?.aborted) throw signal.reason;
      return base.sleep(ms, new AbortController().signal);
    },
  };
  const second = runCli(args('2/2'), { env: f.env, clock, signal: stop.signal });
  await confirmingNow;
  stop.abort();
  const done = await second;
  const out = done.stdout + done.stderr;
  assert.notEqual(done.code, 0, out);
  assert.doesNotMatch(out, /taken over from shard 1/);
  const lease = readdirSync(leases).find((l) => l.endsWith('.shard-0'))!;
  const records = readdirSync(join(leases, lease)).filter((k) => /^[0-9]{8}$/.test(k));
  assert.equal(records.length, 1, `the first worker's lease has records ${records.join(', ')}: taken after the signal`);
});

test("a queue worker confirming a gone worker's lapse holds one place in that lease's queue while it waits: no ticket taken again at each of its reads", async (t) => {
  const { f, args } = await firstHangs(t);
  // Worker 2, its clock 61s on: the first's lease of 60s read past its expiry, confirmed over its ttl, then taken over.
  const second = await runCli(args('2/2'), { env: f.env, clock: simulatedClock(T0 + 61_000) });
  const out = second.stdout + second.stderr;
  assert.match(out, /taken over from shard 1/);
  const leases = join(f.store, 'leases');
  const lease = readdirSync(leases).find((l) => l.endsWith('.shard-0'))!;
  const queue = readdirSync(join(leases, lease, 'queue'));
  const tickets = queue.filter((k) => /^[0-9]{8}$/.test(k));
  assert.equal(tickets.length, 1, `tickets in the queue: ${queue.join(', ')}`);
});

test("a queue worker whose --shard-wait is spent while it confirms a gone worker's lapse stops there and parks (exit 75): it takes neither that worker's lease nor its site over", async (t) => {
  const { f, args } = await firstHangs(t);
  // Worker 2, its clock 61s on: confirming the first's lapse takes its ttl (60s), past the 30s it may wait in all.
  const start = T0 + 61_000;
  const clock = simulatedClock(start);
  const json = join(f.dir, 'worker-2.json');
  const second = await runCli([...args('2/2'), '--shard-wait', '30s', '--report-json', json], { env: f.env, clock });
  const out = second.stdout + second.stderr;
  assert.equal(second.code, 75, out);
  assert.doesNotMatch(out, /taken over from shard 1/);
  // Said once, though each of its reads of the wave's log asks again.
  const cut =
    /^shard 1: its lease lapsed on this runner's clock, not confirmed before this job's --shard-wait \(30s\) was spent: this worker takes none of its sites over/gm;
  assert.equal(out.match(cut)?.length, 1, out);
  // Its waits in all are what spent its bound, not this barrier's.
  assert.match(
    out,
    /^parked: waiting for wave 1's 1 site\(s\) not ended \(site-0001\) after \d+s at this barrier \(\d+s waited in all, --shard-wait 30s\)/m,
  );
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.equal(report.parked?.for, 'barrier');
  // It waited what it may, not the whole confirmation: the barrier's polls after it are a few seconds each.
  assert.ok(clock.now() - start < 60_000, `waited ${(clock.now() - start) / 1000}s`);
  const leases = join(f.store, 'leases');
  const lease = readdirSync(leases).find((l) => l.endsWith('.shard-0'))!;
  const records = readdirSync(join(leases, lease)).filter((k) => /^[0-9]{8}$/.test(k));
  assert.equal(records.length, 1, `the first worker's lease has records ${records.join(', ')}: taken`);
  // Its ticket in that lease's queue given up: the next waiter is not held behind it.
  const queue = readdirSync(join(leases, lease, 'queue'));
  assert.ok(
    queue.some((k) => k.endsWith('.withdrawn')),
    `tickets in the queue: ${queue.join(', ')}`,
  );
});
