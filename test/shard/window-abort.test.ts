// A worker waiting (within --shard-wait) for a site's window, the operator aborting the rollout meanwhile:
// it sends nothing to that site once the window opens. Found by review: before, the wait checked
// only the budget, and the site's write went out after the abort.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, waveLog } from './helpers.ts';

test('aborted while its worker waits for a site window: nothing is sent to that site afterwards', async (t) => {
  const updates: string[] = [];
  const f = await shardFleet(t, 3, `  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 0`, {
    answered: (method, path) => {
      const site = /\/sites\/([^/]+)\/api\/devops\/v1\/update\/system$/.exec(path)?.[1];
      if (method === 'POST' && site) updates.push(site);
    },
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '\nsteps:\n',
      `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 6h\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
    ),
  );
  const run = (await f.shard('--shards', '1', '--assign', 'static')).run!;
  const base = simulatedClock(Date.parse('2027-03-01T21:50:00Z'));
  let abortedAt: number | undefined;
  // The worker's clock: its sleep for the window (10 minutes) is when the operator aborts the rollout.
  const clock = {
    ...base,
    sleep: async (ms: number, signal: AbortSignal) => {
      if (abortedAt === undefined && ms >= 5 * 60_000) {
        const d = await runCli(['decide', '--store', f.storeUrl, '--run', run, '--abort', '--reason', 'stop now'], {
          env: f.env,
          clock: simulatedClock(base.now()),
        });
        assert.equal(d.code, 0, d.stdout + d.stderr);
        abortedAt = updates.length;
      }
      return base.sleep(ms, signal);
    },
  };
  const json = join(f.dir, 'w.json');
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1'];
  const r = await runCli([...args, '--shard-wait', '30m', '--shard-ttl', '1h', '--report-json', json], {
    env: f.env,
    clock,
  });
  const out = r.stdout + r.stderr;
  assert.match(out, /this worker waits for it/);
  assert.ok(abortedAt !== undefined, 'the abort was recorded during the wait');
  // After the abort, no write may go to site-0002.
  assert.deepEqual(updates.slice(abortedAt), [], `sent after the abort: ${updates.slice(abortedAt!)}`);
  assert.equal(r.code, 1, out);
  // Its wave's log: site-0002 started before the abort, and no end of it after (its write never sent).
  const log = waveLog(f.store, run, 1);
  const abort = log.findIndex((e) => e.kind === 'abort');
  assert.ok(abort >= 0, JSON.stringify(log));
  assert.deepEqual(
    log.slice(abort + 1).filter((e) => e.site === 'site-0002'),
    [],
    JSON.stringify(log),
  );
});
