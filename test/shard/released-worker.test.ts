// A worker whose lease an operator released (`enginectl lease release RUN.shard-0 --reason ...`)
// while its write was at the server: nothing took the lease, so its last line names the release
// (by whom, why), never "its lease lapsed and was taken"; it sends nothing more (exit 69). The
// step it was cut short at says, in its terminal, its JSON report and `report --merge --store`,
// what a sharded site's words say (docs/pipeline-format.md, "A worker that dies"): run its
// shard's index again, never --resume. Run again, the index finishes the site.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { shardFleet } from './helpers.ts';

const RESUME = /--resume|resume from the store|run --resume/;

/** Each hint of a report's steps with an error, by step name. */
const hints = (report: Report | undefined) =>
  (report?.steps ?? []).filter((s) => s.error?.hint).map((s) => [s.name, s.error!.hint!] as const);

test("a worker whose lease an operator released mid-write says it was released, by whom and why, and every hint of its site says to run the shard's index again", async (t) => {
  let arrived!: () => void;
  let letGo!: () => void;
  const atServer = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (letGo = resolve));
  t.after(letGo);
  let held = false;
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    // The site's system update is applied, its answer held at the gateway until the lease is released.
    after: async (method, path) => {
      if (held || method !== 'POST' || !path.endsWith('/update/system')) return;
      held = true;
      arrived();
      await released;
    },
  });
  // A second write after it: the worker checks its lease before it sends it.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8') +
      '  - id: vfs\n    name: "Reports at ${{ matrix.site }}"\n    uses: update/vfs\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod, files: [1001] }\n',
  );
  const run = (await f.shard('--shards', '1')).run;
  const worker = f.worker(run, '1/1', '--shard-ttl', '1h');
  await atServer;
  const release = await f.cli(['lease', 'release', '--store', f.storeUrl, `${run}.shard-0`, '--reason', 'runner lost']);
  assert.equal(release.code, 0, release.stdout + release.stderr);
  letGo();
  const w = await worker;
  const said = w.stdout + w.stderr;
  assert.equal(w.code, 69, said);
  assert.deepEqual(f.applied('/update/vfs'), {}, 'nothing sent after the release');
  // Its last line names the release: nothing lapsed, nothing took the lease.
  const headline = w.stdout.split('\n').find((l) => l.startsWith('shard 1/1: '));
  assert.match(headline ?? '', /^shard 1\/1: its lease was released by \S+: runner lost\b/, said);
  assert.doesNotMatch(headline ?? '', /lapsed|was taken|renew/);
  assert.match(headline ?? '', /run the index again: site site-0001 .*resumed/);
  assert.equal(w.report?.shard?.end, 'lost');
  // The step it was cut short at: the release in its error, a sharded site's hint (terminal and report).
  const cut = w.report?.steps.find((s) => s.uses === 'update/vfs');
  assert.equal(cut?.outcome, 'cancelled');
  assert.match(cut?.error?.message ?? '', /released by \S+ \(runner lost\)/);
  assert.ok(hints(w.report).length > 0, said);
  for (const [name, hint] of hints(w.report)) {
    assert.doesNotMatch(hint, RESUME, `${name}: ${hint}`);
    assert.match(hint, /run its shard's index again/, `${name}: ${hint}`);
  }
  assert.doesNotMatch(said, RESUME, 'the terminal says no --resume for a sharded site');

  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.ok(hints(merged.report).length > 0, merged.stdout);
  for (const [name, hint] of hints(merged.report)) {
    assert.doesNotMatch(hint, RESUME, `${name}: ${hint}`);
    assert.match(hint, /run its shard's index again/, `${name}: ${hint}`);
  }
  assert.doesNotMatch(merged.stdout + merged.stderr, RESUME);

  // As the words say: the index run again takes the site over and ends it, the update not sent again.
  const again = await f.worker(run, '1/1');
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });
  assert.deepEqual(f.applied('/update/vfs'), { 'site-0001': 1 });
});
