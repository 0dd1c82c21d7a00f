// The other way round from site-run-resume.test.ts: an operator's run --resume of a site's run
// (its worker gone, its lease released) holds that run by its own lease (run.ID) while its write
// is in flight; the shard's job run again meanwhile takes the site over. It must not read that
// write as in doubt, verify it "not applied" and send it a second time: the call a live runner of
// the run has in flight is not in doubt. The worker leaves the site to a later attempt, nothing
// verified or sent, and parks at the wave's barrier (75); the operator's runner, fenced, stops
// before its next record, and the index run again once it stopped finds the write applied.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { realClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, workerProcess } from './helpers.ts';

const FIRST = '/api/classes/v1/classes/12/entities/2001';
const SECOND = '/api/classes/v1/classes/12/entities/2002';

test("a shard's job run again while an operator's resume of a site's run has its write in flight: the write is not sent again", async (t) => {
  const holds = new Map<string, { arrived: () => void; released: Promise<void> }>();
  const hold = (path: string) => {
    let arrived!: () => void;
    let release!: () => void;
    const at = new Promise<void>((resolve) => (arrived = resolve));
    holds.set(path, { arrived, released: new Promise<void>((resolve) => (release = resolve)) });
    t.after(release);
    return { at, release };
  };
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    before: async (method, path) => {
      const held = method === 'PATCH' ? [...holds].find(([p]) => path.endsWith(p)) : undefined;
      if (!held) return;
      holds.delete(held[0]);
      held[1].arrived();
      await held[1].released;
    },
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
      '    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 10s\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n' +
        '  - id: second\n    name: "Second update of ${{ matrix.site }}"\n    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 10s\n    with: { class: 12, id: 2002, fields: { iemailaddress: other@example.com } }\n',
    ),
  );
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'];

  // The shard's first job: killed with its first write at the server, which applies it.
  const first = hold(FIRST);
  const one = workerProcess([...args, '--shard-ttl', '1h'], f.env);
  t.after(() => one.child.kill('SIGKILL'));
  await first.at;
  one.child.kill('SIGKILL');
  await one.done;
  first.release();
  // The operator releases the dead job's lease, then resumes the site's run: the first write read
  // back applied, the second sent, and held at the gateway (in flight).
  const released = await f.cli([
    'lease',
    'release',
    '--store',
    f.storeUrl,
    `${run}.shard-0`,
    '--reason',
    'its job died',
  ]);
  assert.equal(released.code, 0, released.stdout + released.stderr);
  const siteRun = readdirSync(join(f.store, 'runs'))[0]!;
  const second = hold(SECOND);
  const operator = runCli(
    [
      'run',
      f.file,
      '--store',
      f.storeUrl,
      '--resume',
      siteRun,
      '--only',
      'site=site-0001',
      '--in-doubt',
      'verify-and-retry',
    ],
    { env: f.env },
  );
  await second.at;
  // The shard's job run again, 45s on (the second write's longest and its send bound passed): the
  // operator's runner holds the site's run, renewing its lease.
  const real = realClock();
  const later = { now: () => real.now() + 45_000, sleep: real.sleep };
  const again = await runCli([...args, '--shard-wait', '1s'], { env: f.env, clock: later });
  second.release();
  const resumed = await operator;
  assert.deepEqual(
    { first: f.applied(FIRST), second: f.applied(SECOND) },
    { first: { 'site-0001': 1 }, second: { 'site-0001': 1 } },
    `${again.stdout}${again.stderr}\n${resumed.stdout}${resumed.stderr}`,
  );
  assert.equal(again.code, 75, again.stdout + again.stderr);
  assert.match(again.stdout + again.stderr, new RegExp(`its run ${siteRun} is held by `));
  assert.doesNotMatch(again.stdout, /verify: "Second update/, 'nothing verified under a live runner');
  // Once the operator's runner stopped (fenced: its next record refused), the index run again finds both writes applied.
  assert.notEqual(resumed.code, 0, resumed.stdout + resumed.stderr);
  const last = await f.worker(run, '1/1', '--shard-wait', '1s');
  assert.equal(last.code, 0, last.stdout + last.stderr);
  assert.match(last.stdout, /verify: "Second update of site-0001": applied/);
  assert.deepEqual(
    { first: f.applied(FIRST), second: f.applied(SECOND) },
    { first: { 'site-0001': 1 }, second: { 'site-0001': 1 } },
    last.stdout + last.stderr,
  );
});
