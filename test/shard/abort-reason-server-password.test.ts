// The operator's abort of a sharded run masks its reason with every secret of the pipeline, a
// server's password among them (its login, as a run's), before it is recorded: a run's own words
// would never show it, nor may the operator's.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';
import { passwordOf, shardFleet } from './helpers.ts';

test("decide --abort of a sharded run masks a server's password in its reason, as it is recorded and in every report", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, { passwords: true });
  const run = (await f.shard('--shards', '1')).run;
  const password = 'night-shift-Pa55word';
  const env = { ...f.env, [passwordOf(f.names[0]!)]: password };
  const aborted = await runCli(
    ['decide', '--store', f.storeUrl, '--run', run, '--abort', '--reason', `the first site's login ${password} leaked`],
    { env },
  );
  assert.equal(aborted.code, 0, aborted.stdout + aborted.stderr);
  assertClean('decide --abort', aborted.stdout + aborted.stderr, [password]);
  const merged = await runCli(
    ['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', `${f.dir}/m.json`],
    { env },
  );
  assertClean('report --merge --store', merged.stdout + merged.stderr, [password]);
  const kept = readdirSync(f.store, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
  assert.match(kept, /login \*\*\* leaked/);
  assertClean('the run store', kept, [password]);
});
