// A site whose run ended failed by fail-fast (its update's first instance refused: 409, nothing
// applied; its second cancelled, FAIL_FAST, never sent) while its worker's store failed as it
// appended that end to the wave's log. The index run again takes the site over: its run ended, a
// failure, as one process counts it: not resumed. A fail-fast cancellation is the failure's
// consequence, not a run cut short (an interruption): read as one, the taker resumed the run, sent
// the refused write again and the cancelled one, and the rollout went past the wave the failure
// had halted.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet, waveLog } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';

test("a site whose run ended failed by fail-fast, its end not in the wave's log, fails its wave when its index runs again: nothing sent again", async (t) => {
  let arrived!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  t.after(release);
  let held = false;
  const f = await shardFleet(t, 3, '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0', {
    before: async (method, path) => {
      if (held || method !== 'POST' || !path.endsWith(`/sites/site-0001${UPDATE}`)) return;
      held = true;
      arrived();
      await released;
    },
  });
  // The update over two parts of each site, one at a time, fail-fast (its default).
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace('name: "Update ${{ matrix.site }}"', 'name: "Update ${{ matrix.site }} ${{ matrix.part }}"')
      .replace(
        '    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }',
        '    matrix: { site: "${{ vars.sites }}", part: [a, b] }\n    max-parallel: 1\n    server: ${{ matrix.site }}\n    with: { target: prod }',
      ),
  );
  assert.match(readFileSync(f.file, 'utf8'), /part: \[a, b\]/);
  // site-0001's first update refused by the API: a failure, nothing applied; the second is cancelled.
  f.sites.faults.add({ method: 'POST', path: UPDATE, status: 409, site: 'site-0001', times: 1 });
  const run = (await f.shard('--shards', '1')).run;
  const first = f.worker(run, '1/1');
  await reached;
  const blocker = join(f.store, 'shards', run, 'waves', '1', 'log', '00000002');
  mkdirSync(blocker, { recursive: true });
  release();
  const stopped = await first;
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
  assert.match(stopped.stderr, /waves\/1\/log\/00000002 is not a file/);
  rmSync(blocker, { recursive: true });
  assert.deepEqual(f.applied(UPDATE), {}, 'nothing applied by the first attempt');

  const again = await f.worker(run, '1/1');
  assert.deepEqual(f.applied(UPDATE), {}, `nothing applied\n${again.stdout}${again.stderr}`);
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.match(again.stdout, /the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0/);
  assert.deepEqual(
    waveLog(f.store, run, 1).map((e) => [e.kind, e.site, e.outcome]),
    [
      ['start', 'site-0001', undefined],
      ['takeover', 'site-0001', undefined],
      ['ended', 'site-0001', 'failure'],
    ],
  );
});
