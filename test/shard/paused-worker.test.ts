// A queue worker paused (SIGSTOP) with a write's answer on its way, past its lease's ttl: the
// other worker takes its site over, and verify cannot tell whether the vfs update was applied, so
// the site fails for an operator. Woken (SIGCONT), the paused worker has the answer, but the
// site's stored journal is no longer its to write: its records never reach the store (the
// takeover fenced the journal), so no report says "success" for a site its verdict failed;
// it stops LEASE_LOST (exit 69, its report written, `end: lost`) and sends nothing more.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { shardFleet, workerProcess } from './helpers.ts';

test("a worker paused past its ttl with a write's answer on its way: after the takeover its records never reach the store, no report says the site succeeded, and it stops LEASE_LOST (69), its report written", async (t) => {
  const paused: { child?: ChildProcess; site?: string } = {};
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', {
    // Worker 1's vfs update is applied, and the worker is stopped before its answer reaches it.
    answered: (method, path, user) => {
      if (paused.site || user !== 'worker-1' || method !== 'POST' || !path.endsWith('/update/vfs')) return;
      paused.site = /\/sites\/([^/]+)\//.exec(path)?.[1];
      paused.child!.kill('SIGSTOP');
    },
  });
  // A vfs update, which verify cannot read back: the worker that takes the site over cannot tell.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace('uses: update/system', 'uses: update/vfs')
      .replace('with: { target: prod }', 'with: { target: prod, files: [1001] }'),
  );
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  // The paused worker's lease is short, to lapse soon; the taker's is the default (60s), renewed
  // every 20s, which a loaded machine does not miss.
  const args = (index: string, json: string, ttl = ['--shard-ttl', '5s']) => [
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    index,
    ...ttl,
    '--report-json',
    json,
  ];
  const [firstJson, secondJson] = [join(f.dir, 'first.json'), join(f.dir, 'second.json')];
  const first = workerProcess(args('1/2', firstJson), { ...f.env, SITE_USER: 'worker-1' });
  paused.child = first.child;
  t.after(() => first.child.kill('SIGKILL'));
  while (!paused.site) await new Promise((resolve) => setTimeout(resolve, 20));
  // The other worker runs its site, takes the paused one's over once its lease lapsed, and ends.
  const second = await workerProcess(args('2/2', secondJson, []), { ...f.env, SITE_USER: 'worker-2' }).done;
  assert.match(second.out, new RegExp(`${paused.site}`), second.out);
  // Why the site failed is said where the operator reads, not only in the store.
  assert.match(second.out, new RegExp(`✖ site ${paused.site}: its run \\S+ cannot go on: .*verify could not settle`));
  // Its own report says so too: the site taken over is there, its write in doubt, and the worker's outcome a failure.
  assert.equal(second.code, 1, second.out);
  const taker = JSON.parse(readFileSync(secondJson, 'utf8')) as Report;
  assert.equal(taker.outcome, 'failure', second.out);
  assert.equal(taker.counts.inDoubt, 1, second.out);
  const doubt = taker.steps.find((s) => s.matrix?.site === paused.site && s.inDoubt);
  assert.deepEqual(doubt?.inDoubt && [doubt.inDoubt.method, doubt.inDoubt.path], ['POST', '/api/devops/v1/update/vfs']);
  // Its hint is a sharded site's, not a run's: no --resume or --in-doubt for the worker (it refuses both); the
  // operator settles the doubt with a run of the site's own run, its decision recorded.
  assert.match(
    doubt!.error!.hint ?? '',
    /check the call on the server \(enginectl verify --store URL --run \S+ reads its target back\), then settle it with enginectl run FILE --store URL --resume \S+ --only site=site-\d+ --in-doubt skip \(it was applied\) or retry \(it was not\)$/,
  );
  assert.doesNotMatch(
    doubt!.error!.hint ?? '',
    /--shard \S+ --resume|run --resume JOURNAL|enginectl verify JOURNAL|--in-doubt (skip\||verify)/,
  );
  first.child.kill('SIGCONT');
  const woke = await first.done;

  assert.equal(woke.code, 69, woke.out);
  assert.match(woke.out, /its lease lapsed\b/);
  assert.ok(existsSync(firstJson), 'its report is written');
  const report = JSON.parse(readFileSync(firstJson, 'utf8')) as Report;
  assert.equal(report.shard?.end, 'lost');
  // Its own report does not hide the write it sent: the server answered it (200), and the worker
  // could not record the answer nor end the step (the site was no longer its own): cancelled in
  // doubt, as the journal reads a write answered before its step ended, saying why it stopped.
  const lost = report.steps.find((s) => s.matrix?.site === paused.site && s.uses === 'update/vfs');
  assert.equal(lost?.outcome, 'cancelled');
  assert.deepEqual(lost?.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs', status: 200, applied: true });
  assert.equal(lost?.error?.code, 'IN_DOUBT');
  assert.match(
    lost?.error?.message ?? '',
    /^cancelled after sending POST \/api\/devops\/v1\/update\/vfs \(answered 200, before the step ended\): the request was sent; the server may have applied it \(the run stopped: journal .*another runner writes run/,
  );
  assert.equal(report.counts.inDoubt, 1);
  assert.deepEqual(f.applied('/update/vfs')[paused.site!], 1, 'the write was sent once');
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const site = merged.report!.steps.filter((i) => i.matrix?.site === paused.site);
  assert.ok(site.length > 0, merged.stdout);
  // The site's row says what the rollout counted it (its worker's end: failed), not "cancelled".
  assert.equal(
    merged.report!.merged!.reports.find((r) => r.source.startsWith(`site ${paused.site}:`))?.outcome,
    'failure',
    merged.stdout,
  );
  assert.match(merged.stdout, new RegExp(`✖ site=${paused.site}: failure `));
  assert.ok(
    site.every((i) => i.outcome !== 'success'),
    `no report of the store says the site succeeded: ${JSON.stringify(site.map((i) => [i.name, i.outcome]))}`,
  );
  const ended = (r: Report) => r.steps.find((s) => s.matrix?.site === paused.site && s.error?.code === 'IN_DOUBT');
  assert.match(ended(merged.report!)?.error?.hint ?? '', /check the call on the server/);
  // Its terminal record not written yet (the taker killed after the wave's log had its end): it
  // has ended all the same, its hint the same, not "run its shard's index again".
  rmSync(join(f.store, 'shards', run, 'sites', `s-${paused.site}`));
  const early = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.match(
    ended(early.report!)?.error?.hint ?? '',
    /^the site counts as failed in its wave, and a sharded run takes no --in-doubt decision: check the call on the server \(enginectl verify --store URL --run \S+ reads its target back\), then settle it with enginectl run FILE --store URL --resume \S+ --only site=site-\d+ --in-doubt skip \(it was applied\) or retry \(it was not\)$/,
    early.stdout,
  );
});
