// A site whose run ended failed (its write refused: 409, nothing applied) while its worker's store
// failed as it appended that end to the wave's log: the worker stops (exit 1), the end in the
// site's journal only. The index run again takes the site over: its run ended, and its failure is
// the wave's, as one process's run counts it against the budget. Before, the taker resumed the
// ended run, sent the refused write again (accepted this time), and with it the rollout went past
// the wave whose budget the failure had spent: wave 2 ran everywhere, the merged report all green.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet, waveLog } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';

test("a site whose run ended failed, its end not in the wave's log (the store failed), fails its wave when its index runs again: not sent again, the rollout halts", async (t) => {
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
  // site-0001's update refused by the API: a failure, nothing applied.
  f.sites.faults.add({ method: 'POST', path: UPDATE, status: 409, site: 'site-0001', times: 1 });
  const run = (await f.shard('--shards', '1')).run;
  const first = f.worker(run, '1/1');
  await reached;
  // While the update is in flight, the wave log's next key is made unwritable (a directory where
  // the site's end goes): the end reaches the site's journal, not the wave's log.
  const blocker = join(f.store, 'shards', run, 'waves', '1', 'log', '00000002');
  mkdirSync(blocker, { recursive: true });
  release();
  const stopped = await first;
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
  assert.match(stopped.stderr, /waves\/1\/log\/00000002 is not a file/);
  rmSync(blocker, { recursive: true });
  assert.deepEqual(
    waveLog(f.store, run, 1).map((e) => e.kind),
    ['start'],
    "the site's end is not in the wave's log",
  );

  const again = await f.worker(run, '1/1');
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.deepEqual(f.applied(UPDATE), {}, `nothing applied\n${again.stdout}${again.stderr}`);
  assert.match(again.stdout, /the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0/);
  assert.deepEqual(
    waveLog(f.store, run, 1).map((e) => [e.kind, e.site, e.outcome]),
    [
      ['start', 'site-0001', undefined],
      ['takeover', 'site-0001', undefined],
      ['ended', 'site-0001', 'failure'],
    ],
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.match(merged.stdout, /the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\)/);
  assert.deepEqual(
    merged.report?.steps.filter((s) => s.matrix?.site === 'site-0001').map((s) => [s.id, s.outcome]),
    [
      ['update', 'failure'],
      ['alerts', 'skipped'],
    ],
  );
});
