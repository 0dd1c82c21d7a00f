// A site of a sharded run is a stored run of its own (its id in its wave's log), held by its
// worker's lease (RUN.shard-I), not by the run's own lease (run.ID). While the worker has the
// site's write in flight (held at the gateway), an operator's run --resume or --continue of the
// site's run, with --in-doubt verify-and-retry, must not read that write as in doubt, verify it
// not applied and send it again: it is refused (JOURNAL_LOCKED, exit 2) before it records or
// verifies anything, as verify and decide of the site's run are (app/stored-run-held.ts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { realClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

/** classes/update's PATCH, which verify reads back (applied or not). */
const UPDATE = '/api/classes/v1/classes/12/entities/2001';

for (const how of ['--resume', '--continue'] as const)
  test(`a site's run ${how} with --in-doubt verify-and-retry while its worker has the write in flight: refused (JOURNAL_LOCKED), the write applied once`, async (t) => {
    let hold: { arrived: () => void; released: Promise<void> } | undefined;
    const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
      before: async (method, path) => {
        const h = hold;
        if (!h || method !== 'PATCH' || !path.endsWith(UPDATE)) return;
        hold = undefined;
        h.arrived();
        await h.released;
      },
    });
    // The fleet's write: classes/update, whose PATCH verify reads back (not applied while it is held).
    writeFileSync(
      f.file,
      readFileSync(f.file, 'utf8').replace(
        '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
        '    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n',
      ),
    );
    assert.match(readFileSync(f.file, 'utf8'), /classes\/update/);
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    hold = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
    t.after(release);

    const run = (await f.shard('--shards', '1')).run;
    // The worker's lease outlives the operator's clock's lead (renewed all along, as a live worker's is).
    const going = f.worker(run, '1/1', '--shard-ttl', '10m');
    await reached;
    // The site's run: the one run in the store's runs/ (the worker's journal of its one site).
    const siteRuns = readdirSync(join(f.store, 'runs'));
    assert.equal(siteRuns.length, 1, siteRuns.join(', '));
    const siteRun = siteRuns[0]!;
    const segments = () => readdirSync(join(f.store, 'runs', siteRun)).length;
    const before = segments();
    // The operator resumes the site's run as its worker ran it (--only its site), 90s later (the write's longest: 1m passed): verify reads the PATCH held as not applied.
    const real = realClock();
    const later = { now: () => real.now() + 90_000, sleep: real.sleep };
    const operator = await runCli(
      [
        'run',
        f.file,
        '--store',
        f.storeUrl,
        how,
        siteRun,
        '--only',
        'site=site-0001',
        '--in-doubt',
        'verify-and-retry',
      ],
      { env: f.env, clock: later },
    );
    const after = segments();
    release();
    const worker = await going;
    assert.deepEqual(f.applied(UPDATE), { 'site-0001': 1 }, `applied once\n${operator.stdout}${operator.stderr}`);
    assert.equal(operator.code, 2, operator.stdout + operator.stderr);
    assert.match(operator.stderr, /JOURNAL_LOCKED/);
    assert.match(operator.stderr, /is in use by site site-0001 of sharded run /);
    assert.doesNotMatch(operator.stdout, /verify: /, 'nothing verified');
    assert.equal(after, before, 'the refused runner put nothing in the site run');
    assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  });
