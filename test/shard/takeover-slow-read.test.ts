// A site taken over from a worker gone with its write in doubt is resumed with verify-and-retry:
// its read of the target reaches the server minutes after the taker's site began (a slow gateway
// here; a queue of reads, retries, in life). Verify reads each answer's Date on the taker's clock
// as it goes on, not as it stood when the site began: the taker's clock, in step with the
// server's, is not named minutes behind it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

/** classes/update's PATCH of entity 2001, which verify reads back. */
const ENTITY = '/api/classes/v1/classes/12/entities/2001';
const never = new AbortController().signal;

test("a site taken over with its write in doubt, whose read of the target reaches the server 2 minutes after the taker began: read not applied, sent again, no clock named off the server's", async (t) => {
  // The clock of the worker running now: the sites' clock moves with it, and the gateway holds on it.
  let clock: Clock | undefined;
  let held = 0;
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    before: async (method, path) => {
      if (method !== 'GET' || !path.endsWith(ENTITY) || held === 0) return;
      const ms = held;
      held = 0;
      await clock!.sleep(ms, never);
    },
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
      '    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n',
    ),
  );
  // The first worker's PATCH held by the server, unanswered and never applied.
  f.sites.faults.add({ method: 'PATCH', path: ENTITY, hang: true, site: 'site-0001', times: 1 });
  const run = (await f.shard('--shards', '1')).run;
  const patches = () => {
    const log = f.sites.started().get('site-0001')?.requests ?? [];
    const sent = log.filter((r) => r.method === 'PATCH' && r.path === ENTITY);
    return { sent: sent.length, applied: sent.filter((r) => r.applied).length };
  };
  const worker = (at: string, signal?: AbortSignal) => {
    clock = simulatedClock(Date.parse(at));
    f.server.now = clock.now;
    const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '1h'];
    return runCli(args, { env: f.env, clock, ...(signal ? { signal } : {}) }).then((r) => ({
      ...r,
      out: r.stdout + r.stderr,
    }));
  };

  // The first worker sends the PATCH and is gone from there on (its lease lapses an hour later).
  const stop = new AbortController();
  t.after(() => stop.abort());
  const gone = worker('2027-03-01T12:00:00Z', stop.signal);
  while (patches().sent === 0) await new Promise((resolve) => setTimeout(resolve, 10));

  // Two hours on, another attempt takes the site over; the gateway holds its read 2 minutes.
  held = 2 * 60_000;
  const taker = await worker('2027-03-01T14:00:00Z');
  stop.abort();
  await gone;
  assert.equal(held, 0, 'the read was held');
  assert.equal(taker.code, 0, taker.out);
  assert.match(taker.out, /verify: "Update site-0001": not-applied: .*past the step's longest: 1m\)$/m);
  assert.doesNotMatch(taker.out, /ahead of|behind/);
  assert.deepEqual(patches(), { sent: 2, applied: 1 }, 'sent again once');
});
