// A stored run whose last runner was an earlier enginectl, which held no lease a live runner keeps
// (its run record of journal version 3: a first run took none, a continue took a live one's over),
// and which has not ended (no finish record, no park of its own): whether that runner is alive
// cannot be read from the store, so its last record stands for its hold, for the run's own
// lease's ttl (2 minutes) on this runner's clock, as a killed runner's own lease would. Until
// then a resume or continue is refused (JOURNAL_LOCKED, nothing verified, decided or sent): a
// call it has in flight is not in doubt. Before, run --resume RUN --in-doubt retry sent that
// write again while the earlier runner's was still on its way (two applied updates, reproduced
// with the fec09907 build).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';

const PIPELINE = `version: 1
name: Release by an earlier runner
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

test('a stored run an earlier enginectl (journal version 3) was writing moments ago, its write unanswered: a resume is refused (JOURNAL_LOCKED) until its hold would have lapsed, nothing sent; one it wrote minutes ago goes on', async (t) => {
  const { emulator, url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-earlier-runner-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    ENGINECTL_STORE: `file://${store}`,
  };
  const sent = () => emulator.count('POST', '/api/devops/v1/update/vfs');

  /** A run of the store as an earlier enginectl leaves it while its write is on its way, its records made `ago` before now. */
  const earlierRun = async (ago: number) => {
    const first = await runCli(['run', file], { env, clock: simulatedClock(Date.now() - ago) });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const id = /^run: (\S+) in /m.exec(first.stdout)![1]!;
    // Its run record of version 3, nothing after the write's send record, and no run lease of it in the store.
    const segments = join(store, 'runs', id, 'journal');
    let cut = false;
    for (const name of readdirSync(segments).sort()) {
      const path = join(segments, name);
      if (cut) {
        rmSync(path);
        continue;
      }
      const kept: string[] = [];
      for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
        const { crc: _crc, ...record } = JSON.parse(line) as Record<string, unknown>;
        kept.push(record.t === 'run' ? encodeLine({ ...record, v: 3 }).trimEnd() : line);
        if (record.t === 'send') {
          cut = true;
          break;
        }
      }
      writeFileSync(path, `${kept.join('\n')}\n`);
    }
    rmSync(join(store, 'leases', `run.${id}`), { recursive: true, force: true });
    return id;
  };

  const live = await earlierRun(0);
  assert.equal(sent(), 1);
  const early = await runCli(['run', file, '--resume', live, '--in-doubt', 'retry'], { env });
  assert.equal(early.code, 2, early.stdout + early.stderr);
  assert.match(early.stderr, /code: JOURNAL_LOCKED/);
  assert.match(
    early.stderr,
    /its last runner, an earlier enginectl \(journal version 3\) that holds no lease a live runner keeps, wrote its last record .* ago and did not end: it may still be running, and a call it has in flight is not in doubt/,
  );
  assert.match(early.stderr, /hint: .*once that runner's job has ended, or after 20\d\d-\d\d-\d\dT[0-9:.]+Z/);
  assert.equal(sent(), 1, 'nothing sent again while the earlier runner may be alive');
  // report and verify read its write in flight no more than a resume does.
  const reported = await runCli(['report', '--run', live], { env });
  assert.equal(reported.code, 2, reported.stdout + reported.stderr);
  assert.match(reported.stderr, /code: JOURNAL_LOCKED/);
  const verified = await runCli(['verify', '--run', live], { env });
  assert.equal(verified.code, 2, verified.stdout + verified.stderr);
  assert.match(verified.stderr, /code: JOURNAL_LOCKED/);
  assert.match(verified.stderr, /hint: verify once that runner's job has ended, .*; nothing was verified/);

  // Its last record 3 minutes old: its hold would have lapsed; the operator's retry goes on.
  const gone = await earlierRun(3 * 60_000);
  assert.equal(sent(), 2);
  const later = await runCli(['run', file, '--resume', gone, '--in-doubt', 'retry'], { env });
  assert.equal(later.code, 0, later.stdout + later.stderr);
  assert.equal(sent(), 3);
});

test('decide of a parked run whose continue an earlier enginectl (journal version 3) runs, its last record moments old, is refused (JOURNAL_LOCKED): nothing recorded into the journal it writes', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide`);
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 400, times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  // As an earlier enginectl leaves it: the run records of version 3, no run lease in the store, and
  // its continue under way (its run record and site-002's start, its write on its way).
  const segments = join(f.storeUrl.slice('file://'.length), 'runs', id, 'journal');
  const names = readdirSync(segments).sort();
  let run: Record<string, unknown> | undefined;
  for (const name of names) {
    const path = join(segments, name);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileSync(
      path,
      lines
        .map((line) => {
          const { crc: _crc, ...record } = JSON.parse(line) as Record<string, unknown>;
          if (record.t !== 'run') return `${line}\n`;
          run = { ...record, v: 3 };
          return encodeLine(run);
        })
        .join(''),
    );
  }
  rmSync(join(f.storeUrl.slice('file://'.length), 'leases', `run.${id}`), { recursive: true, force: true });
  const at = f.clock.now();
  const key = 'id:update {"site":"site-002"}';
  writeFileSync(
    join(segments, String(Number(names.at(-1)) + 1).padStart(8, '0')),
    encodeLine({ ...run!, resume: true, at }) + encodeLine({ t: 'start', key, at, name: 'Update site-002' }),
  );
  const decided = await f.decide(id, '--retry', 'site-002', '--reason', 'it failed');
  assert.equal(decided.code, 2, decided.stdout + decided.stderr);
  assert.match(decided.stderr, /code: JOURNAL_LOCKED/);
  assert.match(decided.stderr, /its last runner, an earlier enginectl \(journal version 3\)/);
  assert.match(decided.stderr, /hint: decide once that runner's job has ended, .*; nothing was recorded/);
  assert.equal(f.records(id).filter((r) => r.t === 'decide').length, 0, 'nothing recorded');
});
