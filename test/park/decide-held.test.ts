// decide against what else is going on with the run: a continue under way (its runner holds the
// run: decide is refused, the continue goes on undamaged), another decide recorded first (the
// later one is refused, nothing of it recorded), an earlier decision of the same value (the later
// one supersedes it, through the same gates on fresh evidence, and the continue carries it out),
// a call in doubt in a wave parked for its bake (the park asks for a decision on it too). Requests
// are held at a gateway in front of the emulator until the test lets them through; the clock is
// the fleet's simulated one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heldFleet } from './held-fleet.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';
const HOUR = 3_600_000;

test('decide while a --continue of the run is under way (its write held) is refused, JOURNAL_LOCKED, and records nothing; the continue ends undamaged', async (t) => {
  const { f, holdNext } = await heldFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const ended = await f.decide(id, '--continue', '--reason', 'end the bake');
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const decisions = () => f.records(id).filter((r) => r.t === 'decide').length;

  const h = holdNext((method, path) => method === 'POST' && path === `/sites/site-002${UPDATE}`);
  const going = f.run('--continue', id);
  await h.reached;
  const abort = await f.decide(id, '--abort', '--reason', 'stop it');
  assert.equal(abort.code, 2, abort.stdout + abort.stderr);
  assert.match(abort.stderr, /JOURNAL_LOCKED/);
  assert.match(abort.stderr, /still running/);
  assert.equal(decisions(), 1, 'the refused abort recorded nothing');
  h.release();
  const done = await going;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });

  // Once it ended, decide is refused for what the run is: not parked.
  const late = await f.decide(id, '--abort', '--reason', 'too late');
  assert.equal(late.code, 2, late.stdout + late.stderr);
  assert.match(late.stderr, /NOT_PARKED/);
});

const ON_DOUBT = `  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide`;

test('two decides at once: the one that reads the evidence first and records second is refused (DECISION_REFUSED, exit 2), nothing of it recorded', async (t) => {
  const { f, holdNext } = await heldFleet(t, 3, ON_DOUBT);
  f.sites.faults.add({ method: 'POST', path: UPDATE, gateway: 504, times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;

  const h = holdNext((method, path) => method === 'GET' && path.startsWith('/sites/site-002/'));
  const slow = f.decide(id, '--exclude', 'site-002', '--reason', 'B');
  await h.reached;
  const quick = await f.decide(id, '--skip', 'site-002', '--reason', 'A');
  assert.equal(quick.code, 0, quick.stdout + quick.stderr);
  h.release();
  const lost = await slow;
  assert.equal(lost.code, 2, lost.stdout + lost.stderr);
  assert.match(lost.stderr, /DECISION_REFUSED/);
  assert.match(lost.stderr, /another decision was recorded first/);
  const recorded = f.records(id).filter((r) => r.t === 'decide');
  assert.deepEqual(
    recorded.map((r) => [r.decision, r.reason]),
    [['skip', 'A']],
  );
});

test('a later decision on a value supersedes the earlier one: it meets the same gates on fresh evidence, and the continue carries it out', async (t) => {
  // Not applied (reset before the server read it): verify cannot tell; skip, then retry with the operator's word.
  const a = await parkFleet(t, 3, ON_DOUBT);
  a.sites.faults.add({ method: 'POST', path: UPDATE, reset: 'before', times: 1, site: 'site-002' });
  const first = await a.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal((await a.decide(id, '--skip', 'site-002', '--reason', 'assumed applied')).code, 0);
  const bare = await a.decide(id, '--retry', 'site-002');
  assert.equal(
    bare.code,
    2,
    `a retry verify cannot tell needs --accept-cannot-tell, decided before or not: ${bare.stdout}`,
  );
  assert.match(bare.stderr, /verify cannot tell whether "Update site-002" was applied/);
  const retry = await a.decide(id, '--retry', 'site-002', '--accept-cannot-tell', '--reason', 'checked: not applied');
  assert.equal(retry.code, 0, retry.stdout + retry.stderr);
  assert.match(retry.stdout, /replaces the earlier decision: skip site-002/);
  const done = await a.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(a.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 }, 'the retry in force was sent');
  const site2 = done.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-002');
  assert.equal(site2?.decision?.decision, 'retry');

  // Applied (reset after): verify reads it so; a retry after an exclude is refused as before one.
  const b = await parkFleet(t, 3, ON_DOUBT);
  b.sites.faults.add({ method: 'POST', path: UPDATE, reset: 'after', times: 1, site: 'site-002' });
  const parked = await b.run();
  const idB = runIdOf(parked.stdout)!;
  await b.clock.sleep(3 * 60_000, new AbortController().signal);
  assert.equal((await b.decide(idB, '--exclude', 'site-002', '--reason', 'go on without it')).code, 0);
  const again = await b.decide(idB, '--retry', 'site-002');
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /verify read "Update site-002" as applied/);
});

test('a call in doubt in a wave parked for its bake: the park asks for a decision on it, a continue without one parks again, decide --skip is taken', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 1\n  analysis: { bake: 12h }`,
  );
  f.sites.faults.add({ method: 'POST', path: UPDATE, reset: 'after', times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.deepEqual(
    first.report!.parked!.waits.map((w) => w.value),
    [null, 'site-002'],
  );
  const listed = await f.decide(id);
  assert.match(listed.stdout, /verify: "Update site-002"/);
  assert.equal((await f.decide(id, '--continue', '--reason', 'end the bake')).code, 0);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.match(early.stdout, /^still parked: waiting for a decision on site site-002/m);
  await f.clock.sleep(13 * HOUR, new AbortController().signal);
  const skip = await f.decide(id, '--skip', 'site-002', '--reason', 'the engine shows it');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});
