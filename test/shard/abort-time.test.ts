// When a sharded run the operator aborted ended, as the next plan of its fleet says it: the time
// of the abort as decide recorded it, whatever the operator's identity or reason say in words; the
// reports carry the abort as fields (rollout.halted.aborted), and an earlier version's verdict,
// which said it in words alone, reads the same from its wave's log.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

test('the reports carry the abort as fields (who, when, why), the words made from them', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '1');
  const before = Date.now();
  const args = ['decide', '--store', f.storeUrl, '--run', first.run, '--abort', '--reason', REASON];
  assert.equal((await runCli(args, { env: { ...f.env, USER: OPERATOR } })).code, 0);
  const after = Date.now();
  const worker = await f.worker(first.run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', first.run]);
  for (const report of [worker.report, merged.report]) {
    const halted = report?.rollout?.halted;
    assert.ok(halted?.aborted, JSON.stringify(report?.rollout));
    const { by, at, reason } = halted.aborted;
    assert.match(by, /^ops, 2099-01-01T00:00:00\.000Z\): night shift@/);
    assert.equal(reason, REASON);
    assert.ok(at >= before && at <= after, `${at}`);
    assert.equal(halted.reason, `aborted by the operator (${by}, ${new Date(at).toISOString()}): ${REASON}`);
  }
});

test("an abort's verdict an earlier version wrote (its words alone) reads as aborted at its abort, from its wave's log", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const first = await f.shard('--shards', '1');
  const before = Date.now();
  const args = ['decide', '--store', f.storeUrl, '--run', first.run, '--abort', '--reason', REASON];
  assert.equal((await runCli(args, { env: { ...f.env, USER: OPERATOR } })).code, 0);
  const after = Date.now();
  assert.equal((await f.worker(first.run, '1/1')).code, 1);
  // The verdict as the earlier version wrote it: no `aborted`, the abort said in `halted`'s words.
  const path = join(f.store, 'shards', first.run, 'waves', '1', 'verdict');
  const { aborted, ...earlier } = JSON.parse(readFileSync(path, 'utf8')) as { aborted?: unknown; halted: string };
  assert.ok(aborted, 'this version writes the fields');
  assert.match(earlier.halted, /^aborted by the operator \(ops, 2099/);
  writeFileSync(path, JSON.stringify(earlier));

  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', first.run]);
  assert.equal(merged.report?.rollout?.halted?.reason, earlier.halted);
  assert.equal(merged.report?.rollout?.halted?.aborted?.reason, REASON);
  const next = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '1']);
  assert.equal(next.code, 0, next.stdout + next.stderr);
  const at = Date.parse(endedAt(next.stderr) ?? '');
  assert.ok(at >= before - 1 && at <= after + 1, `ended at ${endedAt(next.stderr)}, not at its abort`);
});

test("a rollout halted by a wave's failures is no abort: its halt's aborted is null", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 0', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0001 status=409'],
  });
  const first = await f.shard('--shards', '1');
  const worker = await f.worker(first.run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', first.run]);
  for (const report of [worker.report, merged.report]) {
    assert.match(report?.rollout?.halted?.reason ?? '', /failed \(site-0001\), over the budget of 0/);
    assert.equal(report?.rollout?.halted?.aborted, null);
  }
  const next = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '1']);
  assert.match(next.stderr, /ended failure \(halted at wave 1\)/, next.stderr);
});
