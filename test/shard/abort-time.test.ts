// When a sharded run the operator aborted ended, as the next plan of its fleet says it: the time
// of the abort as decide recorded it, whatever the operator's identity or reason say in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

// An identity is the CI's (a display name on some) or $USER: free text, here holding what the
// abort's words put after it, with a time long after the abort.
const OPERATOR = 'ops, 2099-01-01T00:00:00.000Z): night shift';
const REASON = 'bad release, 2098-01-01T00:00:00.000Z): see the ticket';

const endedAt = (stderr: string) => /ended aborted at wave 1 at (\S+Z):/.exec(stderr)?.[1];

for (const workers of [false, true])
  test(`an aborted run ended at its abort, whatever its operator's name and reason say (${workers ? 'its verdict written by a worker' : 'no worker ran'})`, async (t) => {
    const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
    const first = await f.shard('--shards', '1');
    const before = Date.now();
    const args = ['decide', '--store', f.storeUrl, '--run', first.run, '--abort', '--reason', REASON];
    const abort = await runCli(args, { env: { ...f.env, USER: OPERATOR } });
    assert.equal(abort.code, 0, abort.stdout + abort.stderr);
    const after = Date.now();
    if (workers) assert.equal((await f.worker(first.run, '1/1')).code, 1);
    const next = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '1']);
    assert.equal(next.code, 0, next.stdout + next.stderr);
    assert.match(next.stderr, new RegExp(`the last run of this fleet \\(${first.run}\\) ended aborted`), next.stderr);
    const at = Date.parse(endedAt(next.stderr) ?? '');
    assert.ok(at >= before - 1 && at <= after + 1, `ended at ${endedAt(next.stderr)}, not at its abort`);
  });
