// A site of a sharded run taken over (its index run again after its worker stopped) whose run's
// journal in the store holds a record no run writes (a status with no send before it): the taker
// reads the journal it laid from the store before anything is verified or sent, and refuses it.
// Before, that read (whether the run had ended) spoke of a local file: "this file was altered, or
// is not one journal of enginectl run --journal", a file no worker keeps. Now it says where the
// record is in the store (the segment's key) and what to do: put it back, or abort and plan anew.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { shardFleet } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';

test("a site taken over whose run's stored journal holds a record out of order: refused in the store's words, not a --journal file's", async (t) => {
  let arrived!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  t.after(release);
  let held = false;
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    before: async (method, path) => {
      if (held || method !== 'POST' || !path.endsWith(`/sites/site-0001${UPDATE}`)) return;
      held = true;
      arrived();
      await released;
    },
  });
  const run = (await f.shard('--shards', '1')).run;
  const first = f.worker(run, '1/1');
  await reached;
  // The site's end cannot reach the wave's log (a directory where it goes): its worker stops, the site not ended there.
  const blocker = join(f.store, 'shards', run, 'waves', '1', 'log', '00000002');
  mkdirSync(blocker, { recursive: true });
  release();
  const stopped = await first;
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
  rmSync(blocker, { recursive: true });

  const [siteRun] = readdirSync(join(f.store, 'runs'));
  const dir = join(f.store, 'runs', siteRun!, 'journal');
  const name = readdirSync(dir)
    .sort()
    .findLast((n) => readFileSync(join(dir, n)).length > 0)!;
  const key = `runs/${siteRun}/journal/${name}`;
  writeFileSync(
    join(f.store, key),
    readFileSync(join(f.store, key), 'utf8') +
      encodeLine({ t: 'status', key: 'nokey', at: Date.now(), method: 'POST', path: UPDATE, status: 200 }),
  );

  const again = await f.worker(run, '1/1');
  const out = `exit ${again.code}\n${again.stdout}${again.stderr}`;
  assert.notEqual(again.code, 0, out);
  assert.match(out, /a status record of nokey with no send record before it/, out);
  assert.doesNotMatch(out, /this file|enginectl run --journal|give the file written by/, out);
  assert.ok(out.includes(`${key} in ${f.storeUrl}`), `the hint names the segment's key and the store\n${out}`);
  assert.match(out, /put it back from a copy of the store \(S3 versioning, a backup\)/, out);
  assert.match(out, /abort the sharded run with decide --store URL --run ID --abort/, out);
  assert.deepEqual(f.applied(UPDATE), { 'site-0001': 1 }, 'nothing sent again');
});
