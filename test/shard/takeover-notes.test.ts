// A worker attempt that took its worker's lease over (the attempt before it killed) runs each of its
// sites under that lease: the merged report of the run (report --merge --store) says the takeover
// once, not once per site (a fleet of 10,000 sites would have 10,000 notes in its summary, HTML and
// JUnit properties).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, workerProcess } from './helpers.ts';

test('report --merge --store of a run whose worker attempt took its lease over: the takeover is one note, not one per site', async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  let holding = false;
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]', {
    before: (method, path) => {
      // Attempt 1 is held at site-0002's alerts read (its update ended): nothing of it in doubt.
      if (holding || method !== 'GET' || !path.includes('/site-0002/') || !path.endsWith('/alerts')) return;
      holding = true;
      reached();
      return held;
    },
  });
  t.after(() => release());
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '3s'];
  const first = workerProcess(args, f.env);
  t.after(() => first.child.kill('SIGKILL'));
  await atServer;
  first.child.kill('SIGKILL');
  await first.done;
  // Attempt 2 takes the worker's lease over once it lapsed, resumes site-0002 and runs the others.
  // Its own lease long (the killed attempt's 3s lapses all the same): a stalled machine never loses it midway.
  const ended = await runCli([...args.slice(0, -1), '1h', '--report-json', join(f.dir, 'second.json')], {
    env: f.env,
  });
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const summary = join(f.dir, 'summary.md');
  const junit = join(f.dir, 'junit.xml');
  const merged = await f.cli([
    'report',
    '--merge',
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--summary',
    summary,
    '--junit',
    junit,
  ]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const notes = readFileSync(summary, 'utf8')
    .split('\n')
    .filter((l) => /Took the lease/.test(l));
  const properties = readFileSync(junit, 'utf8')
    .split('\n')
    .filter((l) => /<property name="lease takeover"/.test(l));
  assert.equal(notes.length, 1, notes.join('\n'));
  assert.match(
    notes[0]!,
    /^\*\*site=site-0002, site=site-0003, site=site-0004: Took the lease \S+\.shard-0 over: took over from run /,
  );
  assert.equal(properties.length, 1, properties.join('\n'));
  // The workers' own reports merged without the store (--expect-shards) keep the takeover too, said for the worker.
  const files = join(f.dir, 'files.md');
  const fromFiles = await f.cli([
    'report',
    '--merge',
    join(f.dir, 'second.json'),
    '--expect-shards',
    '1',
    '--summary',
    files,
  ]);
  // Attempt 1 was killed: site-0001, which it ended, is in attempt 2's file (ended earlier, under attempt 1's own lease).
  assert.equal(fromFiles.code, 0, fromFiles.stdout + fromFiles.stderr);
  assert.doesNotMatch(fromFiles.stdout, /no report/);
  const said = readFileSync(files, 'utf8')
    .split('\n')
    .filter((l) => /Took the lease/.test(l));
  assert.equal(said.length, 1, readFileSync(files, 'utf8'));
  assert.match(said[0]!, /^\*\*shard 1\/1[^:]*: Took the lease \S+\.shard-0 over: took over from run /);
});
