// A bake's start is on the clock of the run that parked, its end judged by the continue, often
// another CI job on another machine whose clock may be hours off. The servers' clock (the Date of
// their answers) is the one both read: the bake ends only once this machine's clock and the
// server's both say it elapsed. On the simulated clock the emulator and the first run share; the
// continue reads it shifted, as a runner whose clock is ahead or behind.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const HOUR = 3_600_000;
const ROLLOUT = `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`;

/** A proxy in front of the emulator that drops the Date of its answers while `dateless()` says so (a gateway that strips it). */
async function dateStripper(t: TestContext, upstream: string, dateless: () => boolean): Promise<string> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const forwarded = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        if (dateless()) {
          delete headers.date;
          res.sendDate = false;
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An offset as the Date's whole second lets it be read: `h` hours, give or take a second. */
const about = (h: number) => `(${h}h|${h}h1s|${h - 1}h59m59s)`;

type Fleet = Awaited<ReturnType<typeof parkFleet>>;

const tick = (f: Fleet, ms: number) => f.clock.sleep(ms, new AbortController().signal);

/** `run --continue ID` on a machine whose clock is `offMs` off the servers' (ahead when positive), with its JSON report. */
async function continueOn(f: Fleet, id: string, offMs: number, n: number) {
  const json = join(f.dir, `off-${n}.json`);
  const clock = { now: () => f.clock.now() + offMs, sleep: f.clock.sleep };
  const r = await runCli(['run', f.file, '--store', f.storeUrl, '--continue', id, '--report-json', json], {
    env: f.env,
    clock,
  });
  const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined;
  return { ...r, report };
}

test("a continue 1h into a 12h bake on a machine 13h ahead: the server's clock says 11h left, so it parks again, warned; 11h later it goes on, saying which clocks judged it", async (t) => {
  const f = await parkFleet(t, 3, ROLLOUT);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  await tick(f, HOUR);

  const early = await continueOn(f, id, 13 * HOUR, 1);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'wave 2 is not sent before the bake ends');
  const evidence = early.report!.parked!.waits[0]!.evidence[0]!;
  assert.match(evidence, /^(11h|10h59m\d+s) left on server site-001's clock \(the Date of its answers\)/);
  assert.match(evidence, new RegExp(`this machine's clock is ${about(13)} ahead of it`));
  assert.match(early.stdout, new RegExp(`warning .*this machine's clock is ${about(13)} ahead of server site-001's`));
  assert.doesNotMatch(early.stdout, /its 12h bake elapsed/);
  assert.equal(early.report!.parked!.since, first.report!.parked!.since, "the bake's start is the first park's");

  await tick(f, 11 * HOUR);
  const done = await continueOn(f, id, 13 * HOUR, 2);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /wave 1: its 12h bake elapsed, on this machine's clock and on server site-001's/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test("a clock gone back since the park never shortens the bake: 1h in, on a machine 2h behind, 13h are left on its clock, and the continue parks again, warned of the server's", async (t) => {
  const f = await parkFleet(t, 3, ROLLOUT);
  const id = runIdOf((await f.run()).stdout)!;
  await tick(f, HOUR);
  const r = await continueOn(f, id, -2 * HOUR, 1);
  assert.equal(r.code, PARKED, r.stdout + r.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
  const evidence = r.report!.parked!.waits[0]!.evidence[0]!;
  assert.match(evidence, /^(13h|12h59m\d+s) left \(until [^)]+ on the run's clock\)/);
  assert.match(evidence, new RegExp(`this machine's clock is ${about(2)} behind server site-001's`));
  assert.match(r.stdout, new RegExp(`warning .*this machine's clock is ${about(2)} behind server site-001's`));

  // 12h on: the server's clock says the bake elapsed, this machine's that 1h is left: it waits for both.
  await tick(f, 12 * HOUR);
  const still = await continueOn(f, id, -2 * HOUR, 2);
  assert.equal(still.code, PARKED, still.stdout + still.stderr);
  assert.match(still.report!.parked!.waits[0]!.evidence[0]!, /^(1h|59m\d+s) left/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
});

test("a park that kept no server's clock (its answers had no Date), continued past its bake on a machine 13h ahead of the servers': it cannot be judged across the two machines, so it parks again, saying why and what to do", async (t) => {
  let dateless = true;
  const f = await parkFleet(t, 3, ROLLOUT, '', '', { front: (url) => dateStripper(t, url, () => dateless) });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.equal(first.report!.parked!.clock, undefined, 'no answer had a Date');
  const id = runIdOf(first.stdout)!;
  dateless = false;
  await tick(f, HOUR);
  const r = await continueOn(f, id, 13 * HOUR, 1);
  assert.equal(r.code, PARKED, r.stdout + r.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
  assert.match(
    r.report!.parked!.waits[0]!.evidence[0]!,
    new RegExp(
      `^the bake cannot be judged across the two machines: this machine's clock is ${about(13)} ahead of server site-001's .*the park kept no server's clock.*set this machine's clock right \\(NTP\\) and continue again, or end the bake with enginectl decide --continue$`,
    ),
  );
  // On a clock set right, 12h after the park: its own clock alone judges it, and says so.
  await tick(f, 11 * HOUR);
  const done = await continueOn(f, id, 0, 2);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /its 12h bake elapsed, on this machine's clock alone \(the park kept no server's clock/);
});

test("a continue whose wave runs nothing again (no gate step after its write) reads the server's clock once, with a GET, before it ends the bake on a machine 13h ahead", async (t) => {
  const f = await parkFleet(t, 3, ROLLOUT);
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace(/ {2}- id: alerts[^]*$/, ''));
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.equal(
    first.report!.parked!.clock?.server,
    'site-001',
    "the park keeps the server's clock its write's answers showed",
  );
  const id = runIdOf(first.stdout)!;
  await tick(f, HOUR);
  const reads = () =>
    f.sites
      .started()
      .get('site-001')!
      .requests.filter((q) => q.method === 'GET').length;
  const before = reads();
  const r = await continueOn(f, id, 13 * HOUR, 1);
  assert.equal(r.code, PARKED, r.stdout + r.stderr);
  assert.equal(reads() - before, 1, 'one read of site-001, for its clock');
  assert.match(r.report!.parked!.waits[0]!.evidence[0]!, /^(11h|10h59m\d+s) left on server site-001's clock/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
});

test("the decide listing on a machine 13h ahead, 1h into a 12h bake, promises no continue: it says the park's evidence, that this machine's clock says the bake elapsed, and that run --continue judges it on its own machine's clock and a server's; that continue parks again", async (t) => {
  const f = await parkFleet(t, 3, ROLLOUT);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  await tick(f, HOUR);

  const ahead = { now: () => f.clock.now() + 13 * HOUR, sleep: f.clock.sleep };
  const listed = await runCli(['decide', '--store', f.storeUrl, '--run', id], { env: f.env, clock: ahead });
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.doesNotMatch(listed.stdout, /goes on/);
  const line = /^.*the 12h bake after wave 1: .*$/m.exec(listed.stdout)?.[0] ?? listed.stdout;
  assert.match(line, /the 12h bake after wave 1: when it parked: 12h left \(until \S+ on the run's clock\); /);
  assert.match(line, /; elapsed on this machine's clock \(at \S+, 2h ago\); /);
  assert.match(
    line,
    /; run --continue judges it on its own machine's clock and on a server's of the wave, and parks again while either says it has not elapsed \(decide --continue ends it now\); /,
  );

  const early = await continueOn(f, id, 13 * HOUR, 1);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.deepEqual(
    f.applied('/update/system'),
    { 'site-001': 1 },
    'wave 2 is not sent: the listing promised no continue',
  );

  // Once ended by the operator's decision, the listing says so rather than a clock's reading.
  const ended = await runCli(['decide', '--store', f.storeUrl, '--run', id, '--continue', '--reason', 'baked enough'], {
    env: f.env,
    clock: f.clock,
  });
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const after = await f.decide(id);
  assert.match(
    after.stdout,
    /the 12h bake after wave 1: when it parked: .*; ended by the operator's decision to continue; /,
  );
});
