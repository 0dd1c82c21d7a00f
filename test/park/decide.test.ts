// Decisions about a parked run (enginectl decide), over a write made in doubt by the emulator's
// faults: the run parks (on-failure: decide) instead of halting; decide lists what it waits for
// with verify's verdict; each decision is recorded in the store with who, when, why and the
// evidence, and shown in the reports; no applied write is sent again; a retry on "cannot tell"
// is refused without a reason.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Report } from '../../src/report/model.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const FLEET = (budget: number) => `  over: site
  waves: [[site-001], rest]
  max-failures: ${budget}
  on-failure: decide`;

/** A 4-site rollout whose site-002 update is in doubt (`reset`), parked for a decision. */
async function parkedOnDoubt(t: TestContext, reset: 'before' | 'after', budget = 0) {
  const f = await parkFleet(t, 4, FLEET(budget));
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', reset, times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.match(first.stdout, /^parked: waiting for a decision on wave 2: site-002 failed$/m);
  assert.equal(first.report!.parked?.for, 'decision');
  assert.deepEqual(
    first.report!.parked!.waits.map((w) => w.value),
    ['site-002'],
  );
  return { f, id, first };
}

test('a value in doubt parks the run for a decision; continue before one parks again; decide lists the evidence; --skip goes on without sending it again', async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 });

  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.match(early.stdout, /^still parked: waiting for a decision on site site-002/m);

  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /parked at wave 2 since .*, waiting for a decision on wave 2: site-002 failed/);
  assert.match(listed.stdout, /in doubt: POST \/api\/devops\/v1\/update\/system.*verify: "Update site-002"/);
  assert.match(listed.stdout, /the wave's budget left: 0 of 0/);

  const skipped = await f.decide(id, '--skip', 'site-002', '--reason', 'engines show the new version');
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.match(
    skipped.stdout,
    /^recorded: skip site-002 by .*: engines show the new version \(on: verify: "Update site-002"/m,
  );
  const decide = f.records(id).find((r) => r.t === 'decide');
  assert.equal(decide?.decision, 'skip');
  assert.equal(decide?.reason, 'engines show the new version');

  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(
    f.applied('/update/system'),
    { 'site-001': 1, 'site-002': 1, 'site-003': 1, 'site-004': 1 },
    'the write in doubt (applied) is not sent again',
  );
  const d = done.report!.decisions.find((x) => x.decision === 'skip');
  assert.equal(d?.value, 'site-002');
  assert.match(d!.by, /@/, 'who: the CI actor at the host');
  assert.equal(d!.reason, 'engines show the new version');
});

test('--retry on a call verify cannot tell is refused without --accept-cannot-tell and a reason; with them the write not applied is sent once', async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'before');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
  const refused = await f.decide(id, '--retry', 'site-002');
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /--retry site-002: verify cannot tell whether "Update site-002" was applied/);
  assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 0, 'nothing recorded');
  const noReason = await f.decide(id, '--retry', 'site-002', '--accept-cannot-tell');
  assert.equal(noReason.code, 2, noReason.stdout + noReason.stderr);

  const retried = await f.decide(id, '--retry', 'site-002', '--accept-cannot-tell', '--reason', 'checked: not updated');
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1, 'site-004': 1 });
});

test('--exclude: the wave goes on without the value, within its budget; --abort ends the run and --continue is refused', async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after', 1);
  const excluded = await f.decide(id, '--exclude', 'site-002', '--reason', 'site under repair');
  assert.equal(excluded.code, 0, excluded.stdout + excluded.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, 'a value failed within the budget: exit 1 as before');
  assert.deepEqual(done.report!.rollout!.waves[1]!.outcome, 'failed-within-budget');
  assert.deepEqual(done.report!.rollout!.waves[1]!.failed, ['site-002']);
  const site2 = done.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-002');
  assert.equal(site2?.outcome, 'skipped');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1, 'site-004': 1 });

  const other = await parkedOnDoubt(t, 'after');
  const aborted = await other.f.decide(other.id, '--abort', '--reason', 'rolling back by hand');
  assert.equal(aborted.code, 0, aborted.stdout + aborted.stderr);
  const refused = await other.f.run('--continue', other.id);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /the operator aborted it \(.*: rolling back by hand\)/);
  const parked = await other.f.cli(['runs', '--store', other.f.storeUrl, '--parked']);
  assert.match(parked.stdout, /^no parked run in /m);
});

test("--exclude of a value in doubt: the run that goes on and report of the store tell one story of its write (in doubt, treated as applied on verify's word) and keep the decision", async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after', 1);
  // Past the monitoring refresh after the update: verify reads the Engines on the new version.
  await f.clock.sleep(3 * 60_000, new AbortController().signal);
  const excluded = await f.decide(id, '--exclude', 'site-002', '--reason', 'site under repair');
  assert.equal(excluded.code, 0, excluded.stdout + excluded.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, done.stdout + done.stderr);
  const json = join(f.dir, 'stored.json');
  const stored = await f.cli(['report', '--store', f.storeUrl, '--run', id, '--report-json', json]);
  assert.equal(stored.code, 1, stored.stdout + stored.stderr);
  const read = JSON.parse(readFileSync(json, 'utf8')) as Report;
  const story = (r: Report) => {
    const s = r.steps.find((x) => x.id === 'update' && x.matrix?.site === 'site-002')!;
    return [s.outcome, s.inDoubt?.method ?? null, s.decision?.decision, s.decision?.verdict];
  };
  assert.deepEqual(story(done.report!), ['skipped', 'POST', 'skip', 'applied'], 'the run');
  assert.deepEqual(story(read), story(done.report!), 'report of the store');
  assert.equal(done.report!.counts.treatedAsApplied, 1);
  assert.equal(read.counts.treatedAsApplied, 1);
  const said = (r: Report) => r.decisions.map((d) => [d.decision, d.value]);
  assert.deepEqual(said(done.report!), [['exclude', 'site-002']]);
  assert.deepEqual(said(read), said(done.report!));
});

test("--exclude (or --continue) of a value whose write verify cannot tell leaves it in doubt, never treated as applied: the run that goes on and report of the store say so, and a later --resume asks for the operator's word instead of ending in success", async (t) => {
  for (const decision of ['--exclude', '--continue'] as const) {
    // Cut before the server saw it (never applied); verify cannot tell (the source's version unknown).
    const { f, id } = await parkedOnDoubt(t, 'before', 1);
    const args = decision === '--continue' ? [decision] : [decision, 'site-002'];
    const decided = await f.decide(id, ...args, '--reason', 'site under repair');
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    assert.match(decided.stdout, /verify: "Update site-002" .*: cannot-tell/);
    const done = await f.run('--continue', id);
    assert.equal(done.code, 1, done.stdout + done.stderr);
    assert.doesNotMatch(done.stdout, /treated as applied/, decision);
    const json = join(f.dir, 'stored.json');
    const stored = await f.cli(['report', '--store', f.storeUrl, '--run', id, '--report-json', json]);
    assert.equal(stored.code, 1, stored.stdout + stored.stderr);
    const read = JSON.parse(readFileSync(json, 'utf8')) as Report;
    for (const r of [done.report!, read]) {
      const s = r.steps.find((x) => x.id === 'update' && x.matrix?.site === 'site-002')!;
      assert.equal(s.inDoubt?.method, 'POST', decision);
      assert.equal(s.decision?.verdict, 'cannot-tell', decision);
      assert.equal(s.decision?.leftInDoubt, true, decision);
      assert.equal(r.counts.treatedAsApplied, 0, decision);
      assert.equal(r.counts.inDoubt, 1, decision);
    }
    // No one said it was applied: a resume of the run refuses until the operator decides, and sends nothing.
    const resumed = await f.run('--resume', id);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /cannot resume: an instance is in doubt: "Update site-002"/);
    assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-003': 1, 'site-004': 1 }, decision);
  }
});

test("a secret in decide's --reason is masked where the decision is recorded and said: the run's journal in the store, decide's own line and every report after it", async (t) => {
  const SECRET = 'prod-token';
  const f = await parkFleet(t, 3, FLEET(0));
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 409, times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const decided = await f.decide(id, '--exclude', 'site-002', '--reason', `rotated ${SECRET} on site-002`);
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(decided.stdout, /^recorded: exclude site-002 by .*: rotated \*\*\* on site-002/m);
  const stored = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? stored(join(dir, e.name)) : [readFileSync(join(dir, e.name), 'utf8')],
    );
  assert.ok(!stored(join(f.dir, 'store')).some((text) => text.includes(SECRET)), 'no object of the store holds it');
  const done = await f.run('--continue', id);
  assert.equal(done.report!.decisions[0]?.reason, 'rotated *** on site-002');
  assert.ok(!(done.stdout + done.stderr).includes(SECRET));
});

test('--continue past the wave: the value in doubt is left as it is (not sent again), the wave goes on', async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after');
  const listed = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.match(
    listed.stdout,
    new RegExp(
      `^${id}  "Fleet release" .* parked at wave 2 since .*: waiting for a decision on wave 2: site-002 failed$`,
      'm',
    ),
  );
  assert.match(listed.stdout, /^ {2}waiting for a decision on site site-002/m);
  const going = await f.decide(id, '--continue', '--reason', 'accepted');
  assert.equal(going.code, 0, going.stdout + going.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, done.stdout + done.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1, 'site-004': 1 });
});

test("a decision with a timeout (--after 4h --then abort) takes effect on the run's clock: parked again before, aborted after", async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after');
  const timed = await f.decide(id, '--after', '4h', '--then', 'abort', '--reason', 'nobody looked');
  assert.equal(timed.code, 0, timed.stdout + timed.stderr);
  assert.match(timed.stdout, /^recorded: abort at \S+ unless decided before by /m);
  const listed = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.match(listed.stdout, /^ {2}abort at \S+ unless decided before/m);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, 'the timeout has not come: still parked for the decision');
  await f.clock.sleep(5 * 3_600_000, new AbortController().signal);
  const late = await f.run('--continue', id);
  assert.equal(late.code, 2, late.stdout + late.stderr);
  assert.match(late.stderr, /the operator aborted it \(.*: nobody looked\)/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 }, 'nothing more sent');
});

test('on-failure: decide on the step (the rollout halts by default): its failure parks the run; --retry of a call verify reads as applied (gateway=504) is refused, --skip goes on', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  max-failures: 0`,
    '',
    '    on-failure: decide',
  );
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    gateway: 504,
    times: 1,
    site: 'site-002',
  });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  // Past the monitoring refresh after the update: verify reads the Engines on the new version.
  await f.clock.sleep(3 * 60_000, new AbortController().signal);
  const retry = await f.decide(id, '--retry', 'site-002');
  assert.equal(retry.code, 2, 'a retry of a call applied at the server is refused');
  assert.match(retry.stderr, /--retry site-002: verify read "Update site-002" as applied/);
  const skip = await f.decide(id, '--skip', 'site-002', '--reason', 'applied behind the gateway');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(
    f.applied('/update/system'),
    { 'site-001': 1, 'site-002': 1, 'site-003': 1 },
    'the applied write not sent again',
  );
});

test('without on-failure: decide a failure halts as before, even with a store', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]`);
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-002' });
  const r = await f.run();
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.report!.parked, null);
  assert.equal(r.report!.rollout!.halted?.wave, 2);
});

test('report of a parked run once decide recorded its --skip, before the continue: the decision shown not acted on yet, said for the continue that acts on it, not for a run that recorded it and was killed', async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after');
  const skipped = await f.decide(id, '--skip', 'site-002', '--reason', 'engines show the new version');
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  const json = join(f.dir, 'decided.json');
  const stored = await f.cli(['report', '--store', f.storeUrl, '--run', id, '--report-json', json]);
  const line = stored.stdout.split('\n').find((l) => /in doubt: .*by the operator|not sent again/.test(l)) ?? '';
  assert.match(line, /not acted on yet: the run that goes on .*run --continue/, stored.stdout);
  assert.doesNotMatch(line, /the run that recorded it ended/);
  const read = JSON.parse(readFileSync(json, 'utf8')) as Report;
  const site2 = read.steps.find((x) => x.id === 'update' && x.matrix?.site === 'site-002')!;
  assert.deepEqual([site2.decision?.decision, site2.decision?.pending], ['skip', true]);
  assert.equal(read.counts.treatedAsApplied, 0);
  // Once the continue acted on it: treated as applied, no longer pending.
  assert.equal((await f.run('--continue', id)).code, 0);
  const after = join(f.dir, 'after.json');
  await f.cli(['report', '--store', f.storeUrl, '--run', id, '--report-json', after]);
  const done = JSON.parse(readFileSync(after, 'utf8')) as Report;
  const acted = done.steps.find((x) => x.id === 'update' && x.matrix?.site === 'site-002')!;
  assert.deepEqual([acted.decision?.decision, acted.decision?.pending], ['skip', null]);
  assert.equal(done.counts.treatedAsApplied, 1);
});

test('verify --store of a parked run whose call it cannot tell yet says how to go on: decide for what the park waits on, or a continue deciding a call a killed continue left (a timeout not yet due is no abort)', async (t) => {
  const { f, id } = await parkedOnDoubt(t, 'after');
  assert.equal((await f.decide(id, '--after', '4h', '--then', 'abort', '--reason', 'nobody looked')).code, 0);
  const verified = await f.cli(['verify', '--store', f.storeUrl, '--run', id, '--pipeline', f.file]);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"Update site-002"/m);
  assert.match(
    verified.stdout,
    new RegExp(
      `^then: check on the server, then decide: enginectl decide --store URL --run ${id} lists what the parked run waits for .*; a call a killed continue left: enginectl run \\S+ --store URL --continue ${id} --in-doubt skip or retry$`,
      'm',
    ),
  );
  // Aborted, the run goes on no way: verify names none (a resume or continue of it is refused).
  assert.equal((await f.decide(id, '--abort', '--reason', 'bad release')).code, 0);
  const aborted = await f.cli(['verify', '--store', f.storeUrl, '--run', id, '--pipeline', f.file]);
  assert.match(
    aborted.stdout,
    /^then: check on the server: the run was aborted, so nothing more of it is sent \(a new run starts from the beginning\)$/m,
  );
});
