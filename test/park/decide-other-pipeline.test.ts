// decide reads a parked run's calls in doubt back with a pipeline loaded again (the file its run
// named, or --pipeline FILE, with --var values given again): one whose servers, --var values or
// files are not the run's would read another server, and its "not applied" would let a --retry
// send an applied write again. decide refuses it, saying what differs and what to give, and
// records nothing; verify --store refuses to read another server than the run's.
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';
import { UPDATE_ENTITY, WRITE } from './held-fleet.ts';

const DECIDE = `  over: site\n  waves: [[site-001], rest]\n  on-failure: decide`;
const tick = (f: { clock: { sleep(ms: number, s: AbortSignal): Promise<void> } }, ms: number) =>
  f.clock.sleep(ms, new AbortController().signal);

/** A fleet parked on site-002's PATCH, applied and its answer cut: in doubt, waiting for a decision. */
async function parkedOnApplied(t: Parameters<typeof parkFleet>[0], edit = (text: string) => text, ...args: string[]) {
  const f = await parkFleet(t, 3, DECIDE, '', '', { write: WRITE });
  writeFileSync(f.file, edit(readFileSync(f.file, 'utf8')));
  f.sites.faults.add({ method: 'PATCH', path: UPDATE_ENTITY, reset: 'after', times: 1, site: 'site-002' });
  const first = await f.run(...args);
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.deepEqual(f.applied(UPDATE_ENTITY)['site-002'], 1);
  // Past the step's longest: (1m): a target that does not hold the write would read not applied.
  await tick(f, 5 * 60_000);
  return { f, id: runIdOf(first.stdout)! };
}

const decisions = (f: Awaited<ReturnType<typeof parkFleet>>, id: string) =>
  f.records(id).filter((r) => r.t === 'decide' || r.t === 'decision');

test("decide without the --var the run was given (a server's URL reads it) is refused, naming the server and the run's --var values; given them, verify reads the run's server and the write is sent once", async (t) => {
  const { f, id } = await parkedOnApplied(
    t,
    (text) => text.replace('/sites/site-002"', '/sites/${{ vars.s2 }}"').replace('vars:\n', 'vars:\n  s2: site-003\n'),
    '--var',
    's2=site-002',
  );
  for (const args of [['--retry', 'site-002', '--reason', 'verify says not applied'], []]) {
    const refused = await f.decide(id, ...args);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /server site-002 is \S+\/sites\/site-003 here, \S+\/sites\/site-002 in the run/);
    assert.match(refused.stderr, /the --var values differ from the run's/);
    assert.match(refused.stderr, /hint: .*--var s2=site-002/);
    assert.doesNotMatch(refused.stdout, /not-applied/);
  }
  assert.deepEqual(decisions(f, id), [], 'nothing recorded');

  const retry = await f.decide(id, '--retry', 'site-002', '--var', 's2=site-002', '--reason', 'r');
  assert.equal(retry.code, 2, retry.stdout + retry.stderr);
  assert.match(retry.stderr, /verify read "Update site-002" as applied/);
  const skip = await f.decide(id, '--skip', 'site-002', '--var', 's2=site-002', '--reason', 'applied');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);
  const done = await f.run('--continue', id, '--var', 's2=site-002');
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied(UPDATE_ENTITY)['site-002'], 1, 'the applied PATCH was not sent again');
});

test('decide --pipeline of another file (the same server names, another URL) is refused, naming the server and the file; verify --store with it reads no other server', async (t) => {
  const { f, id } = await parkedOnApplied(t);
  const other = join(f.dir, 'other.yml');
  writeFileSync(other, readFileSync(f.file, 'utf8').replace('/sites/site-002"', '/sites/site-003"'));
  const retry = await f.decide(id, '--retry', 'site-002', '--pipeline', other, '--reason', 'not applied');
  assert.equal(retry.code, 2, retry.stdout + retry.stderr);
  assert.match(retry.stderr, /server site-002 is \S+\/sites\/site-003 here, \S+\/sites\/site-002 in the run/);
  assert.match(retry.stderr, /the pipeline file changed/);
  assert.match(retry.stderr, /hint: .*the run's file/);
  assert.deepEqual(decisions(f, id), [], 'nothing recorded');

  const verify = await f.cli(['verify', '--store', f.storeUrl, '--run', id, '--pipeline', other]);
  assert.equal(verify.code, 2, verify.stdout + verify.stderr);
  assert.match(verify.stderr, /server site-002 is \S+\/sites\/site-003 here, \S+\/sites\/site-002 in the run/);
  assert.doesNotMatch(verify.stdout, /not-applied/);
});

test("decide where the file the run named is not (another checkout) says to give --pipeline FILE or decide from the run's checkout; given it, verify reads the run's server", async (t) => {
  const { f, id } = await parkedOnApplied(t);
  const moved = join(f.dir, 'moved.yml');
  renameSync(f.file, moved);
  const listed = await f.decide(id);
  assert.equal(listed.code, 2, listed.stdout + listed.stderr);
  assert.match(listed.stderr, /cannot read the pipeline: no such file/);
  assert.match(listed.stderr, /hint: .*--pipeline FILE.*checkout/);
  const given = await f.decide(id, '--pipeline', moved);
  assert.equal(given.code, 0, given.stdout + given.stderr);
  assert.match(given.stdout, /verify: "Update site-002" \(PATCH [^)]*\): applied/);
});
