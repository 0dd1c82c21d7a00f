// The park report --merge F... --expect-shards N tells of workers parked at a wave's barrier: the
// most informed one (the worker that parked last read the most of the wave ended), and never a
// site the merged report shows ended among the sites the wave waits for.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { shardOf } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, waveLog, workerProcess } from './helpers.ts';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report;
/** The sites whose instances the merged report holds, all ended (none cancelled). */
const endedIn = (r: Report) => {
  const sites = new Set(r.steps.map((s) => String(s.matrix?.site)));
  for (const s of r.steps) if (s.outcome === 'cancelled') sites.delete(String(s.matrix?.site));
  return [...sites].sort();
};
/** What the merged terminal says the rollout waits for (its ⏸ line, up to the wait). */
const waitLine = (stdout: string) => /^⏸ .*? after \d+s/m.exec(stdout)?.[0] ?? '';

async function mergeFiles(files: string[], out: string) {
  const r = await runCli(['report', '--merge', ...files, '--expect-shards', '3', '--report-json', out]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  return { stdout: r.stdout, report: read(out) };
}

test("report --merge --expect-shards of workers parked one after the other at the barrier: the park told is the later worker's, whichever file comes first, no site it shows ended among those waited for", async (t) => {
  const f = await shardFleet(t, 9, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '3')).run;
  const owned = (i: number) => f.names.filter((s) => shardOf(s, 3) === i);
  assert.ok(
    [0, 1, 2].every((i) => owned(i).length > 0),
    'each shard owns a site',
  );
  const files = ['w1.json', 'w2.json'].map((n) => join(f.dir, n));
  for (const [i, json] of files.entries()) {
    const w = await runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', `${i + 1}/3`, '--shard-wait', '1s'].concat([
        '--report-json',
        json,
      ]),
      { env: f.env },
    );
    assert.equal(w.code, 75, w.stdout + w.stderr);
  }
  const later = read(files[1]!).parked!;
  assert.match(later.reason, new RegExp(`^wave 1's ${owned(2).length} site\\(s\\) not ended`));
  for (const order of [files, [...files].reverse()]) {
    const { stdout, report } = await mergeFiles(order, join(f.dir, 'merged.json'));
    const ended = endedIn(report);
    assert.deepEqual(ended, [...owned(0), ...owned(1)].sort());
    assert.deepEqual(report.parked, later);
    assert.deepEqual(report.rollout?.parked?.reason, later.reason);
    assert.match(waitLine(stdout), /^⏸ the rollout waits at wave 1: /);
    for (const site of ended) {
      assert.doesNotMatch(report.parked!.reason, new RegExp(site), `${site} ended, yet waited for`);
      assert.doesNotMatch(waitLine(stdout), new RegExp(site), `${site} ended, yet waited for`);
    }
  }
});

test("report --merge --expect-shards: a worker parked at the barrier, and another stopped (SIGTERM) there after its sites ended: the park told does not wait for the sites the other's report shows ended", async (t) => {
  const f = await shardFleet(t, 9, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '3')).run;
  const owned = (i: number) => f.names.filter((s) => shardOf(s, 3) === i);
  const [w1, w2] = ['w1.json', 'w2.json'].map((n) => join(f.dir, n)) as [string, string];
  const base = ['run', f.file, '--store', f.storeUrl, '--run', run];
  const first = await runCli([...base, '--shard', '1/3', '--shard-wait', '1s', '--report-json', w1], { env: f.env });
  assert.equal(first.code, 75, first.stdout + first.stderr);
  // The second waits at the barrier (an hour's wait) once its sites ended; stopped there.
  const second = workerProcess([...base, '--shard', '2/3', '--shard-wait', '1h', '--report-json', w2], f.env);
  t.after(() => second.child.kill('SIGKILL'));
  let exited = false;
  void second.done.then(() => (exited = true));
  const endedBy2 = () => waveLog(f.store, run, 1).filter((e) => e.kind === 'ended' && owned(1).includes(e.site)).length;
  while (!exited && endedBy2() < owned(1).length) await new Promise((resolve) => setTimeout(resolve, 50));
  second.child.kill('SIGTERM');
  const stopped = await second.done;
  assert.equal(read(w2).shard?.end, 'cancelled', stopped.out);
  assert.deepEqual(read(w2).shard?.left, []);

  const { stdout, report } = await mergeFiles([w1, w2], join(f.dir, 'merged.json'));
  assert.deepEqual(endedIn(report), [...owned(0), ...owned(1)].sort());
  assert.equal(report.parked?.for, 'barrier');
  assert.match(report.parked!.reason, new RegExp(`^wave 1's ${owned(2).length} site\\(s\\) not ended`));
  for (const site of owned(1)) {
    assert.doesNotMatch(report.parked!.reason, new RegExp(site), `${site} ended, yet waited for`);
    assert.doesNotMatch(waitLine(stdout), new RegExp(site), `${site} ended, yet waited for`);
  }
  // The sites not ended that the parked worker named are still named (one it did not name, only counted).
  const named = owned(2).filter((site) => read(w1).parked!.reason.includes(site));
  assert.ok(named.length > 0);
  for (const site of named) assert.match(report.parked!.reason, new RegExp(site));
  // Told again with the worker's words for its wait: at this barrier, in all, and its bound.
  const after = / after (\d+s at this barrier \(\d+s waited in all, --shard-wait 1s\))$/;
  assert.match(read(w1).parked!.reason, after);
  assert.equal(after.exec(report.parked!.reason)?.[1], after.exec(read(w1).parked!.reason)?.[1]);

  // The same park as an earlier version wrote it (five sites named, the rest counted; no waits;
  // "after" its bound alone): told again without the sites shard 2's report shows ended, its words kept.
  const open = read(w1).parked!.waits.map((w) => w.value!);
  const earlier = join(f.dir, 'w1-earlier.json');
  const old = `wave 1's ${open.length} site(s) not ended (${open.slice(0, 5).join(', ')}${open.length > 5 ? ', ...' : ''}) after 1s`;
  const file = read(w1);
  const rollout = { ...file.rollout!, parked: { ...file.rollout!.parked!, reason: old, waits: [] } };
  writeFileSync(earlier, JSON.stringify({ ...file, parked: { ...file.parked!, reason: old, waits: [] }, rollout }));
  const before = await mergeFiles([earlier, w2], join(f.dir, 'merged-earlier.json'));
  const told = /^wave 1's (\d+) site\(s\) not ended \((.*)\) after 1s$/.exec(before.report.parked!.reason);
  assert.ok(told, before.report.parked!.reason);
  for (const site of owned(1)) assert.doesNotMatch(told[2]!, new RegExp(site), `${site} ended, yet waited for`);
  const left = open.slice(0, 5).filter((site) => !owned(1).includes(site));
  assert.ok(left.length < Math.min(5, open.length), `none of shard 2's sites among the five named: ${old}`);
  // The count less those it named (one past the five it did not name stays counted).
  assert.equal(Number(told[1]), open.length - (Math.min(5, open.length) - left.length));
  assert.equal(told[2]!.replace(/, \.\.\.$/, ''), left.join(', '));
});

test("report --merge --expect-shards of a park at the barrier that waits for more than five sites: the JSON report lists every one (parked.waits), the summary counts them and points there; another worker's ended sites are left out of both", async (t) => {
  const f = await shardFleet(t, 14, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '3')).run;
  const owned = (i: number) => f.names.filter((s) => shardOf(s, 3) === i);
  assert.ok(owned(2).length > 5 && owned(1).length > 0, JSON.stringify([0, 1, 2].map(owned)));
  const [w1, w2] = ['w1.json', 'w2.json'].map((n) => join(f.dir, n)) as [string, string];
  const base = ['run', f.file, '--store', f.storeUrl, '--run', run];
  const first = await runCli([...base, '--shard', '1/3', '--shard-wait', '1s', '--report-json', w1], { env: f.env });
  assert.equal(first.code, 75, first.stdout + first.stderr);
  // Parked waiting for every site of shards 2 and 3: each one is in its report, the reason names five.
  const open = [...owned(1), ...owned(2)].sort();
  assert.deepEqual(
    read(w1)
      .parked!.waits.map((w) => w.value)
      .sort(),
    open,
  );
  // Shard 2 ends its sites, then is stopped (SIGTERM) at the barrier: its report shows them ended.
  const second = workerProcess([...base, '--shard', '2/3', '--shard-wait', '1h', '--report-json', w2], f.env);
  t.after(() => second.child.kill('SIGKILL'));
  let exited = false;
  void second.done.then(() => (exited = true));
  const endedBy2 = () => waveLog(f.store, run, 1).filter((e) => e.kind === 'ended' && owned(1).includes(e.site)).length;
  while (!exited && endedBy2() < owned(1).length) await new Promise((resolve) => setTimeout(resolve, 50));
  second.child.kill('SIGTERM');
  const stopped = await second.done;
  assert.equal(read(w2).shard?.end, 'cancelled', stopped.out);

  const summary = join(f.dir, 'merged.md');
  const r = await runCli([
    'report',
    '--merge',
    w1,
    w2,
    '--expect-shards',
    '3',
    '--report-json',
    join(f.dir, 'm.json'),
    '--summary',
    summary,
  ]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const report = read(join(f.dir, 'm.json'));
  assert.deepEqual(
    report.parked!.waits.map((w) => w.value).sort(),
    owned(2).sort(),
    'every site waited for, none ended',
  );
  assert.deepEqual(report.rollout!.parked!.waits, report.parked!.waits);
  assert.match(report.parked!.reason, new RegExp(`^wave 1's ${owned(2).length} site\\(s\\) not ended \\(`));
  const headline =
    readFileSync(summary, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('**Parked at wave 1')) ?? '';
  assert.match(
    headline,
    new RegExp(
      `${owned(2).length} site\\(s\\) not ended .*and ${owned(2).length - 5} more: each in the JSON report's parked\\.waits`,
    ),
  );
  // Short: five named, not every one.
  assert.equal(owned(2).filter((s) => headline.includes(s)).length, 5, headline);
});
