// A parked run and the processes that decide about it and continue it, killed (SIGKILL) at a
// moment the test holds still: a request of theirs is held at a gateway in front of the emulator
// until the process is dead, then let through (so a write the killed process sent is applied
// behind its back). A later decide or run --continue goes on from what the store holds (once the
// killed continue's hold on the run lapsed, SIGKILL releases nothing: its 2-minute ttl is the
// price, or an operator's lease release), and the
// emulator's request logs show no applied write sent again. The processes are the CLI's source
// (node --import tsx src/cli/bin.ts), as the lead rebuilds dist/ only at the end.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../helpers/cli.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { until } from '../helpers/timing.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const UPDATE = '/api/devops/v1/update/system';

/** A request held at the gateway: `reached` once one matching arrived, `release` lets it through. */
interface Hold {
  match: (method: string, path: string) => boolean;
  reached: Promise<string>;
  release: () => void;
}

/** A 3-site fleet (waves: site-001, site-002, site-003) behind a gateway that can hold a request; site-002's update answered 504 by a gateway after it was applied, so the run parks for a decision. */
async function parkedBehindGateway(t: TestContext) {
  let hold: (Hold & { arrived: (path: string) => void; released: Promise<void> }) | undefined;
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], [site-002], rest]\n  max-failures: 0\n  on-failure: decide`,
    '',
    '',
    {
      front: (url) =>
        gatewayInFront(
          t,
          url,
          () => undefined,
          async (method, path) => {
            const h = hold;
            if (!h?.match(method, path)) return;
            hold = undefined;
            h.arrived(`${method} ${path}`);
            await h.released;
          },
        ),
    },
  );
  f.sites.faults.add({ method: 'POST', path: UPDATE, gateway: 504, times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  /** Holds the next request matching at the gateway. */
  const holdNext = (match: Hold['match']): Hold => {
    let arrived!: (path: string) => void;
    let release!: () => void;
    const reached = new Promise<string>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    hold = { match, reached, release, arrived, released };
    t.after(release);
    return { match, reached, release };
  };
  /** `enginectl ARGS` as a process of its own (the CLI's source), killed with SIGKILL once `hold` was reached. */
  const killedAt = async (h: Hold, ...args: string[]) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
      cwd: ROOT,
      env: cleanEnv(f.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const closed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    t.after(() => void child.kill('SIGKILL'));
    const what = await Promise.race([h.reached, closed.then(() => undefined)]);
    assert.ok(what, `the process ended before the held request: ${output}`);
    child.kill('SIGKILL');
    assert.equal(await closed, 'SIGKILL');
    return { what, output };
  };
  const updates = (site: string) =>
    (f.sites.started().get(site)?.requests ?? []).filter((r) => r.method === 'POST' && r.path === UPDATE);
  const applied = (site: string) => updates(site).filter((r) => r.applied).length;
  return { f, id, holdNext, killedAt, updates, applied };
}

const isUpdateOf = (site: string) => (method: string, path: string) =>
  method === 'POST' && path === `/sites/${site}${UPDATE}`;

test('SIGKILL while continuing, with a write sent and applied behind the killed process: run --continue again sends it not again', async (t) => {
  const { f, id, holdNext, killedAt, updates, applied } = await parkedBehindGateway(t);
  const skip = await f.decide(id, '--skip', 'site-002', '--reason', 'applied, the engines say so');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);

  const h = holdNext(isUpdateOf('site-003'));
  const killed = await killedAt(h, 'run', f.file, '--store', f.storeUrl, '--continue', id);
  assert.equal(killed.what, `POST /sites/site-003${UPDATE}`);
  h.release();
  await until(() => applied('site-003') === 1);

  // Still parked where it was (its decision stands). The killed runner's hold on the run lapses
  // only with its 2-minute ttl (SIGKILL released nothing): until then a continue is refused, as a
  // live runner's would be, nothing read or decided.
  const listed = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.match(listed.stdout, new RegExp(`^${id} .* parked at wave 2 since`, 'm'));
  const held = await f.run('--continue', id, '--in-doubt', 'verify');
  assert.equal(held.code, 2, held.stdout + held.stderr);
  assert.match(held.stderr, /run \S+ is held by another runner of it .* lapses at .*code: JOURNAL_LOCKED/s);
  // decide and verify read the hold's lapse on one clock, the run's. Lapsed less than its ttl ago,
  // the runner may be alive on a clock behind: both refuse, saying when; a whole ttl past, both read the run.
  await f.clock.sleep(3 * 60_000, new AbortController().signal);
  const early = await f.decide(id);
  assert.equal(early.code, 2, early.stdout + early.stderr);
  assert.match(
    early.stderr,
    /lapsed at \S+ on this clock, less than its ttl \(2m\) ago.*decide again after \S+ on this clock/s,
  );
  await f.clock.sleep(2 * 60_000, new AbortController().signal);
  const listing = await f.decide(id);
  assert.doesNotMatch(listing.stderr, /JOURNAL_LOCKED/, 'decide reads the lapse as verify does');
  const verifying = await f.cli(['verify', '--store', f.storeUrl, '--run', id, '--pipeline', f.file]);
  assert.doesNotMatch(verifying.stderr, /JOURNAL_LOCKED/, 'verify reads the lapse as decide does');
  // The operator who knows the runner is gone gives its hold up (rather than wait out its ttl).
  const released = await f.cli(['lease', 'release', '--store', f.storeUrl, `run.${id}`, '--reason', 'runner killed']);
  assert.equal(released.code, 0, released.stdout + released.stderr);
  // The call the killed run left is in doubt: refused, nothing sent.
  const again = await f.run('--continue', id);
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(
    again.stderr,
    /an instance is in doubt: "Update site-003" \(POST \/api\/devops\/v1\/update\/system\); the request was sent and the server may have applied it/,
  );
  assert.equal(updates('site-003').length, 1, 'nothing sent');

  // Past the monitoring refresh after the update, verify reads it as applied: not sent again, the rollout goes on to its end.
  await f.clock.sleep(3 * 60_000, new AbortController().signal);
  const verified = await f.run('--continue', id, '--in-doubt', 'verify');
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^verify: "Update site-003": applied: /m);
  assert.equal(updates('site-003').length, 1, 'the write applied behind the killed continue is not sent again');
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
  const report = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.match(report.stdout, /^no parked run in /m);
});

test('SIGKILL of a continue before its first write: run --continue again goes on, every write once', async (t) => {
  const { f, id, holdNext, killedAt } = await parkedBehindGateway(t);
  const skip = await f.decide(id, '--skip', 'site-002', '--reason', 'applied, the engines say so');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);

  const h = holdNext(() => true);
  const killed = await killedAt(h, 'run', f.file, '--store', f.storeUrl, '--continue', id);
  assert.match(killed.what, /^GET /, 'the continue is killed at its first request, a read');
  h.release();

  // Its hold on the run lapses with its ttl (SIGKILL released nothing): refused until then, or until an operator releases it.
  const held = await f.run('--continue', id);
  assert.equal(held.code, 2, held.stdout + held.stderr);
  assert.match(held.stderr, /JOURNAL_LOCKED/);
  const released = await f.cli(['lease', 'release', '--store', f.storeUrl, `run.${id}`, '--reason', 'runner killed']);
  assert.equal(released.code, 0, released.stdout + released.stderr);
  const again = await f.run('--continue', id);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test('SIGKILL of decide while it reads the evidence: nothing recorded; decide again, then run --continue goes on, every write once', async (t) => {
  const { f, id, holdNext, killedAt } = await parkedBehindGateway(t);
  const h = holdNext((method) => method === 'GET');
  await killedAt(h, 'decide', '--store', f.storeUrl, '--run', id, '--skip', 'site-002', '--reason', 'checked');
  h.release();
  assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 0, 'the killed decide recorded nothing');
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, 'still parked: no decision');

  const skip = await f.decide(id, '--skip', 'site-002', '--reason', 'checked');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});
