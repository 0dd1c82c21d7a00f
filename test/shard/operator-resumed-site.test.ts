// A site of a sharded run is a stored run of its own: once its worker ended it with a write in
// doubt, an operator may settle it with `run FILE --store URL --resume SITE_RUN --in-doubt …`. The
// merged report reads each site's run from its journal: after that resume it tells the site as
// its journal now ends (its decision recorded on the step), as the one-process run's resume
// does, not as the worker's terminal record said before the resume.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

test("an operator's resume of a site's run, its doubt decided and the write applied: the merged report tells the site and the fleet succeeded", async (t) => {
  // site-0002's system update answered 503 once: sent, its fate unknown, the site failed in its wave (within its budget).
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 1', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0002 status=503 times=1'],
  });
  const run = (await f.shard('--shards', '1')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  const before = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(before.code, 1, before.stdout + before.stderr);
  assert.match(before.stdout, /✖ site=site-0002: failure \(2 step run\(s\): 1 failed, 1 skipped, 1 in doubt\)/);
  const siteRun = /site site-0002: run (\S+)/.exec(before.stdout)?.[1];
  assert.ok(siteRun, before.stdout);

  // The step's hint says how to settle it: the command the operator then runs, having checked the server (not applied).
  const hint = before.report!.steps.find((s) => s.id === 'update' && s.matrix?.['site'] === 'site-0002')!.error?.hint;
  const settle =
    / then settle it with enginectl run FILE --store URL (--resume \S+ --only site=site-0002) --in-doubt skip \(it was applied\) or retry \(it was not\)$/.exec(
      hint ?? '',
    );
  assert.ok(settle, hint ?? 'no hint');
  const operator = await runCli(
    ['run', f.file, '--store', f.storeUrl, ...settle[1]!.split(' '), '--in-doubt', 'retry'],
    {
      env: f.env,
    },
  );
  assert.equal(operator.code, 0, operator.stdout + operator.stderr);
  assert.deepEqual(f.applied('/api/devops/v1/update/system'), { 'site-0001': 1, 'site-0002': 1 });

  const after = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
  assert.match(after.stdout, /✔ site=site-0002: success \(2 step run\(s\): 2 succeeded\)/);
  assert.match(
    after.stdout,
    /fleet "Fleet release": success in .* \(2 job report\(s\); 4 step run\(s\): 4 succeeded\)/,
  );
  const report = after.report!;
  assert.equal(report.outcome, 'success');
  assert.deepEqual(
    report.merged!.reports.map((r) => [r.source.split(':')[0], r.outcome]),
    [
      ['site site-0001', 'success'],
      ['site site-0002', 'success'],
    ],
  );
  // The operator's decision is on the step it settled, as a resume's report has it.
  const update = report.steps.find((s) => s.id === 'update' && s.matrix?.['site'] === 'site-0002')!;
  assert.equal(update.outcome, 'success');
  assert.equal(update.decision?.decision, 'retry');
  assert.equal(update.resume, 'resumed');
  // The wave's verdict stays what the rollout recorded when its sites ended (it gated what came after).
  assert.deepEqual(
    report.rollout!.waves.map((w) => [w.outcome, w.failed]),
    [['failed-within-budget', ['site-0002']]],
  );
});

test("a site's write left in doubt under continue-on-error, no one having decided: the merged report fails the site, as its worker did", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 1', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0002 status=503 times=1'],
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    with: { target: prod }\n',
      '    with: { target: prod }\n    continue-on-error: true\n',
    ),
  );
  const run = (await f.shard('--shards', '1')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.match(merged.stdout, /✖ site=site-0002: failure/);
  assert.equal(merged.report!.merged!.reports.find((r) => r.source.startsWith('site site-0002'))!.outcome, 'failure');
});

test("the hint of a site's call in doubt names a resume a shell runs as it reads it: a site whose value holds a space is given to --only as one word", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 1', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0001 status=503 times=1'],
  });
  // Two sites named with a space, both served by one emulated site: the first write answered 503.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace('sites: [site-0001, site-0002]', 'sites: ["eu west", "us east"]')
      .replaceAll('server: ${{ matrix.site }}', 'server: site-0001'),
  );
  const run = (await f.shard('--shards', '1')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  const before = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(before.code, 1, before.stdout + before.stderr);
  const update = before.report!.steps.find((s) => s.id === 'update' && s.outcome === 'failure');
  assert.ok(update, before.stdout);
  const hint = update.error?.hint ?? '';
  const words = / then settle it with enginectl run FILE --store URL (.*) --in-doubt skip \(it was applied\)/.exec(
    hint,
  )?.[1];
  assert.ok(words, hint);
  // The words as a POSIX shell splits them, each ended by a NUL.
  const args = execFileSync('sh', ['-c', `printf '%s\\0' ${words}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
  assert.deepEqual(args.slice(2), ['--only', `site=${String(update.matrix?.['site'])}`]);
  const operator = await runCli(['run', f.file, '--store', f.storeUrl, ...args, '--in-doubt', 'retry'], { env: f.env });
  assert.equal(operator.code, 0, operator.stdout + operator.stderr);
  const after = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
});

test("a worker's terminal tells a site's write it ended in doubt (a 503) as its report does: settled by the operator, not by running the shard's index again", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 1', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0002 status=503 times=1'],
  });
  const run = (await f.shard('--shards', '1')).run;
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.match(worker.stdout, /✖ site site-0002 \(wave 1\): failure/);
  // The site ended, failed in its wave: no worker takes it over (running the index again does nothing for it).
  const said = /✖ \[1\/2\] Update site-0002[^]*?\n {4}hint: (.*)\n/.exec(worker.stdout)?.[1];
  assert.ok(said, worker.stdout);
  assert.doesNotMatch(said, /run its shard's index again/);
  const reported = worker.report!.steps.find((s) => s.id === 'update' && s.matrix?.['site'] === 'site-0002')!;
  assert.equal(said, reported.error?.hint);
  assert.match(said, /--resume \S+ --only site=site-0002 --in-doubt skip \(it was applied\) or retry \(it was not\)$/);
});
