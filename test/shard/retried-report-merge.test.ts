// A retried shard's report holds the sites its earlier attempt ended (shard-earlier.ts), but is the
// report of its own attempt: it starts when that attempt started. Merged with every worker's file,
// the attempt cut short at the barrier is superseded by the retry, and the fleet that succeeded
// everywhere is a success (exit 0), not cancelled.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { shardOf } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, waveLog, workerProcess } from './helpers.ts';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report;

test('an attempt stopped at the barrier after its sites ended, then retried: the merge of every file is a success, the retry starting after it', async (t) => {
  const f = await shardFleet(t, 6, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '3')).run;
  const owned = f.names.filter((s) => shardOf(s, 3) === 0);
  const base = ['run', f.file, '--store', f.storeUrl, '--run', run];
  const w = (n: string) => join(f.dir, n);
  const first = workerProcess([...base, '--shard', '1/3', '--shard-wait', '1h', '--report-json', w('w1a.json')], f.env);
  t.after(() => first.child.kill('SIGKILL'));
  const ended = () => {
    try {
      return waveLog(f.store, run, 1).filter((e) => e.kind === 'ended' && owned.includes(e.site)).length;
    } catch {
      return 0;
    }
  };
  // Its sites ended in the store: it waits at the barrier for the other shards (no bound: it waits an hour).
  while (ended() < owned.length) await sleep(50);
  first.child.kill('SIGTERM');
  assert.notEqual((await first.done).code, 0);
  // The other shards and the retry, at once: each waits at the barrier for the others' sites.
  const runs = await Promise.all(
    (
      [
        ['2/3', 'w2.json'],
        ['3/3', 'w3.json'],
        ['1/3', 'w1b.json'],
      ] as const
    ).map(([spec, file]) =>
      runCli([...base, '--shard', spec, '--shard-wait', '1h', '--report-json', w(file)], { env: f.env }),
    ),
  );
  for (const r of runs) assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(
    Date.parse(read(w('w1b.json')).startedAt) > Date.parse(read(w('w1a.json')).startedAt),
    'the retry started after the attempt it retried',
  );
  const merged = await runCli([
    'report',
    '--merge',
    w('w1a.json'),
    w('w1b.json'),
    w('w2.json'),
    w('w3.json'),
    '--expect-shards',
    '3',
    '--report-json',
    w('m.json'),
  ]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.equal(read(w('m.json')).outcome, 'success');
});
