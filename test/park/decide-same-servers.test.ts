// decide reads a parked run's calls in doubt back only on the servers the run sent them to; what
// else differs from the run's record (a --var no server reads, a file edited since in a way that
// moves no server, a server's URL spelt another way) reads the same servers: said in a warning,
// never a refusal of the listing or of a decision. A --var a server's URL reads is refused
// (decide-other-pipeline.test.ts).
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';
import { UPDATE_ENTITY, WRITE } from './held-fleet.ts';

const DECIDE = `  over: site\n  waves: [[site-001], rest]\n  on-failure: decide`;

/** A fleet parked on site-002's PATCH, applied and its answer cut, past the step's longest: verify reads it applied. */
async function parkedOnApplied(t: Parameters<typeof parkFleet>[0], edit: (text: string) => string, ...args: string[]) {
  const f = await parkFleet(t, 3, DECIDE, '', '', { write: WRITE });
  writeFileSync(f.file, edit(readFileSync(f.file, 'utf8')));
  f.sites.faults.add({ method: 'PATCH', path: UPDATE_ENTITY, reset: 'after', times: 1, site: 'site-002' });
  const first = await f.run(...args);
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  await f.clock.sleep(5 * 60_000, new AbortController().signal);
  return { f, id: runIdOf(first.stdout)! };
}

test("decide without a --var no server reads, and after a comment added to the file, lists and decides on the run's servers, warning of what differs", async (t) => {
  const { f, id } = await parkedOnApplied(
    t,
    (text) => text.replace('vars:\n', 'vars:\n  note: none\n'),
    '--var',
    'note=release 2.3',
  );
  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /verify: "Update site-002" \(PATCH [^)]*\): applied/);
  assert.match(listed.stderr, /warning: .*the --var values differ from the run's/);
  appendFileSync(f.file, '# reviewed after the park\n');
  const skipped = await f.decide(id, '--skip', 'site-002', '--reason', 'applied, verify says so');
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.match(skipped.stderr, /warning: .*the pipeline file changed/);
  assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 1);
});

test("decide and verify of a server whose URL from the environment is spelt another way (a trailing slash, upper case) read the run's server", async (t) => {
  const g = await parkFleet(t, 3, DECIDE, '', '', { write: WRITE });
  const url = /site-002: \{ url: "([^"]+)"/.exec(readFileSync(g.file, 'utf8'))![1]!;
  writeFileSync(g.file, readFileSync(g.file, 'utf8').replace(`url: "${url}"`, 'url: "${{ env.S2_URL }}"'));
  g.sites.faults.add({ method: 'PATCH', path: UPDATE_ENTITY, reset: 'after', times: 1, site: 'site-002' });
  Object.assign(g.env, { S2_URL: url });
  const first = await g.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const run = runIdOf(first.stdout)!;
  await g.clock.sleep(5 * 60_000, new AbortController().signal);
  for (const spelt of [`${url}/`, url.replace('http://', 'HTTP://')]) {
    const env = { ...g.env, S2_URL: spelt };
    const listed = await runCli(['decide', '--store', g.storeUrl, '--run', run], { env, clock: g.clock });
    assert.equal(listed.code, 0, `${spelt}: ${listed.stdout}${listed.stderr}`);
    assert.match(listed.stdout, /verify: "Update site-002" \(PATCH [^)]*\): applied/);
    const verified = await runCli(['verify', '--store', g.storeUrl, '--run', run], { env, clock: g.clock });
    assert.equal(verified.code, 0, `${spelt}: ${verified.stdout}${verified.stderr}`);
  }
});
