// An operator's decision recorded while a continue of the run reads it: decide found the run's own
// lease free, and its record reaches the store after the continue took the lease and read the
// journal. The continue's fence (its next segment, empty, create-only) then finds decide's segment
// there. Ceph's RADOS Gateway behind a proxy holds decide's segment until the continue's fence
// arrives, then lets decide's through before the fence. The continue sends nothing, and says that a
// decision was recorded meanwhile (which, by whom, why) and what to do: an abort ends the run
// (NOT_PARKED, exit 2); another decision leaves it parked with that decision in force (exit 75),
// and the same command again goes on as it says. Before, both were a store failure (STORE_FAILED,
// exit 1, "run the same command again once that runner has stopped", which then answered NOT_PARKED).
// A run that keeps its fleet lease while parked (park: { keep-lease: true }) still keeps it then, and
// the action says parked (a neutral outcome), as a continue of a run still parked does: before, the
// refusal gave the fleet lease up (another rollout could start while this one was parked) and the
// action failed the step.
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { readFileSync } from 'node:fs';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const UPDATE = '/api/devops/v1/update/system';
const HOUR = 3_600_000;

/** A hold the proxy keeps a request in until released; `reached` once a request is in it. */
function hold() {
  let arrived!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((r) => (arrived = r));
  const released = new Promise<void>((r) => (release = r));
  return { reached, released, arrived, release };
}

/**
 * A run parked for its 12h bake after site-001, in an S3 store read through a proxy, its bake
 * elapsed on the fleet's clock (a continue goes on by itself); `race(decision)` runs decide with it
 * and a continue as above: decide's segment held until the continue's fence arrives.
 */
async function parkedBake(t: TestContext, prefix: string, extra = '') {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`, extra);
  const [decided, fenced] = [hold(), hold()];
  let holding = false;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    async (method, path, body) => {
      if (!holding || method !== 'PUT' || !path.includes('/journal/')) return undefined;
      const h = body.includes('"t":"decide"') ? decided : body === '' ? fenced : undefined;
      if (!h) return undefined;
      h.arrived();
      await h.released;
      return undefined;
    },
  );
  t.after(() => (decided.release(), fenced.release()));
  const env = { ...f.env, ...ceph.env };
  const store = ceph.storeUrl(`${prefix}-${Date.now()}`, proxy);
  const cli = (...args: string[]) => runCli(args, { env, clock: f.clock });
  const first = await cli('run', f.file, '--store', store);
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  await f.clock.sleep(13 * HOUR, new AbortController().signal);
  const applied = f.applied(UPDATE);
  assert.deepEqual(applied, { 'site-001': 1 });
  const go = () => cli('run', f.file, '--store', store, '--continue', id);
  /** The root action's job going on with the run (input continue), on the fleet's clock. */
  const job = () =>
    runActionInProcess(actionDef('enginectl'), {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store, continue: id },
      env,
      clock: f.clock,
    });
  /** decide (with `decision`) raced by `goOn`, a continue of the run: decide's record put after the continue's read. */
  const raced = async <T>(goOn: () => Promise<T>, ...decision: string[]): Promise<T> => {
    holding = true;
    const deciding = cli('decide', '--store', store, '--run', id, ...decision);
    await decided.reached; // decide found the run free, its record on its way
    const going = goOn();
    await fenced.reached; // the continue holds the run and read its journal: no decision in it yet
    holding = false;
    decided.release();
    const d = await deciding;
    assert.equal(d.code, 0, d.stdout + d.stderr);
    fenced.release();
    const continued = await going;
    assert.deepEqual(f.applied(UPDATE), applied, `a write was sent: ${JSON.stringify(continued)}`);
    return continued;
  };
  const race = (...decision: string[]) => raced(go, ...decision);
  /** A new run of the pipeline (another rollout) in the same store. */
  const another = () => cli('run', f.file, '--store', store);
  return { f, id, race, raced, go, job, another };
}

test('an abort recorded while a continue reads the run: the continue sends nothing, and says the abort, by whom and why, and that the run is aborted (NOT_PARKED, exit 2), not a store failure', async (t) => {
  const { id, race, go } = await parkedBake(t, 'abort-during-continue');
  const continued = await race('--abort', '--reason', 'canary alarms');
  const said = continued.stdout + continued.stderr;
  assert.equal(continued.code, 2, said);
  assert.doesNotMatch(said, /STORE_FAILED|once that runner has stopped/);
  assert.match(
    continued.stderr,
    new RegExp(
      `run ${id}: an operator's decision was recorded after this runner read the run \\(abort by \\S+: canary alarms\\)`,
    ),
  );
  assert.match(continued.stderr, /nothing was sent/);
  assert.match(continued.stderr, /the run is aborted: nothing to continue/);
  assert.match(continued.stderr, /code: NOT_PARKED/);
  const again = await go();
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /NOT_PARKED/);
});

test('a decision other than abort recorded while a continue reads the run: the continue sends nothing, says it (continue by whom, why), and that the same command again goes on as it says (exit 75); it does', async (t) => {
  const { f, id, race, go } = await parkedBake(t, 'continue-during-continue');
  const continued = await race('--continue', '--reason', 'canary looks fine');
  const said = continued.stdout + continued.stderr;
  assert.equal(continued.code, PARKED, said);
  assert.doesNotMatch(said, /STORE_FAILED|once that runner has stopped/);
  assert.match(
    continued.stderr,
    new RegExp(
      `run ${id}: an operator's decision was recorded after this runner read the run \\(continue by \\S+: canary looks fine\\)`,
    ),
  );
  assert.match(continued.stderr, /nothing was sent/);
  assert.match(continued.stderr, /run the same command again: it goes on as that decision says/);
  const again = await go();
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

const KEEP = 'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }';

test('park: { keep-lease: true }: a decision recorded while a continue reads the run leaves it parked with the fleet lease still kept: another rollout is refused, the same command again goes on', async (t) => {
  const { f, race, go, another } = await parkedBake(t, 'keep-lease-decided-meanwhile', KEEP);
  const continued = await race('--continue', '--reason', 'canary looks fine');
  assert.equal(continued.code, PARKED, continued.stdout + continued.stderr);
  assert.match(continued.stderr, /run the same command again: it goes on as that decision says/);
  const other = await another();
  assert.equal(other.code, 2, `another rollout started while this one is parked: ${other.stdout + other.stderr}`);
  assert.match(other.stderr, /lease fleet is held by/);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1 });
  const again = await go();
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test('the action: a decision recorded while its continue reads the run: outcome parked, the step not failed, the decision said, the fleet lease kept; the next job goes on', async (t) => {
  const { f, raced, job, another } = await parkedBake(t, 'action-decided-meanwhile', KEEP);
  const continued = await raced(job, '--continue', '--reason', 'canary looks fine');
  assert.deepEqual(continued.failed, [], 'a run still parked is no failure');
  assert.equal(continued.code, ExitCode.ok);
  assert.equal(continued.outputs.outcome, 'parked');
  const log = continued.log.join('\n');
  assert.match(
    log,
    /an operator's decision was recorded after this runner read the run \(continue by \S+: canary looks fine\)/,
  );
  assert.match(log, /nothing was sent/);
  assert.match(log, /run again with input continue/);
  const other = await another();
  assert.equal(other.code, 2, `another rollout started while this one is parked: ${other.stdout + other.stderr}`);
  assert.match(other.stderr, /lease fleet is held by/);
  const done = await job();
  assert.deepEqual(done.failed, []);
  assert.equal(done.outputs.outcome, 'success');
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});
