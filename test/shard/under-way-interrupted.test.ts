// A site whose worker was interrupted (SIGTERM) is left, not ended, for a later attempt; the
// interrupted run's journal says why it stopped. Read while the next attempt holds it (its
// takeover's verify reading the target back, before the resume's first record), its steps not
// ended are under way, as a site whose worker was killed reads: not "cancelled: the run was
// interrupted", which the interrupted attempt's journal says of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardFleet, workerProcess } from './helpers.ts';

test('report --merge --store while a later attempt takes over a site whose worker was interrupted: its steps not ended are under way', async (t) => {
  let releaseWrite: () => void = () => undefined;
  const write = new Promise<void>((resolve) => (releaseWrite = resolve));
  let wrote: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (wrote = resolve));
  let releaseRead: () => void = () => undefined;
  const read = new Promise<void>((resolve) => (releaseRead = resolve));
  let reading: () => void = () => undefined;
  const verifying = new Promise<void>((resolve) => (reading = resolve));
  let takenOver = false;
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    before: (method, path) => {
      if (!takenOver && method === 'POST' && path.endsWith('/update/system')) return (wrote(), write);
      // The next attempt's verify reads the site's Engines: held there.
      if (takenOver && method === 'GET' && path.endsWith('/monitoring/v1/engines')) return (reading(), read);
      return undefined;
    },
  });
  t.after(() => (releaseWrite(), releaseRead()));
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '10m'];
  const first = workerProcess(args, f.env);
  t.after(() => first.child.kill('SIGKILL'));
  await atServer;
  first.child.kill('SIGTERM');
  const stopped = await first.done;
  assert.equal(stopped.code, 143, stopped.out);
  takenOver = true;
  const second = workerProcess(args, f.env);
  t.after(() => second.child.kill('SIGKILL'));
  await verifying;
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const steps = merged.report?.steps.map((s) => [s.id, s.error?.code]);
  assert.deepEqual(steps, [
    ['update', 'UNDER_WAY'],
    ['alerts', 'UNDER_WAY'],
  ]);
  assert.match(
    merged.report?.steps[1]?.error?.message ?? '',
    /^not started yet: shard 1\/1 holds site-0001 \(its lease until /,
  );
});
