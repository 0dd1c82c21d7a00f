// A shard worker (`run --shard`) whose S3 store stops answering (Ceph's RADOS Gateway behind a
// proxy that holds every request from a moment on), sent SIGTERM: as a run's, its store calls are
// given `?grace=` (5s by default) after the signal, then cut, and it exits 143. Mid-site: the
// site's local journal holds the record the store did not take, its report says the site was
// interrupted. At its start, as it reads the manifest (which sites it owns): before, that read was
// opened without the run's stop, and waited its `?timeout=` (60 s a try, and its retries) past the
// signal. The built CLI as a process, a real SIGTERM; no bound on time: the holds last until the
// test ends, so a worker that exits did so by cutting its calls.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { until } from '../helpers/timing.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** A sharded run of one site over RGW behind a proxy that holds every request once `hold()` is called; its worker as a process. */
async function workerOverHeldStore(t: TestContext, holdSiteCall: boolean) {
  const releases: (() => void)[] = [];
  t.after(() => releases.forEach((r) => r()));
  let holding = false;
  let held = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    () => {
      if (!holding) return undefined;
      held += 1;
      return new Promise<void>((r) => releases.push(r));
    },
  );
  let siteCalls = 0;
  const f = await shardFleet(
    t,
    1,
    '  over: site\n  waves: [rest]',
    holdSiteCall
      ? {
          // The site's first write is held: the worker is mid-call when it is stopped.
          before: (method) => {
            if (method === 'GET') return;
            siteCalls += 1;
            return new Promise<void>((r) => releases.push(r));
          },
        }
      : undefined,
    { store: { url: ceph.storeUrl(`worker-sigterm-hung-${Date.now()}-${holdSiteCall}`, proxy), env: ceph.env } },
  );
  const run = (await f.shard('--shards', '1')).run;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-worker-sigterm-'));
  const json = join(dir, 'report.json');
  if (!holdSiteCall) holding = true;
  const child = spawn(
    process.execPath,
    [CLI, 'run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--report-json', json],
    // The site's local journal goes to TMPDIR: the test's own directory.
    { env: cleanEnv({ ...f.env, TMPDIR: dir }), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.after(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  let ended = false;
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => ((ended = true), resolve(code))));
  await until(() => (holdSiteCall ? siteCalls > 0 : held > 0) || ended);
  assert.equal(ended, false, `the worker ended before it was stopped: ${out}`);
  holding = true;
  child.kill('SIGTERM');
  const code = await closed;
  return { code, out, held, dir, json };
}

test('SIGTERM to a shard worker mid-site whose S3 store stopped answering: its store calls are cut after their grace, exit 143, the local journal holding the record the store did not take', async (t) => {
  const r = await workerOverHeldStore(t, true);
  assert.equal(r.code, 143, r.out);
  assert.ok(r.held > 0, `the worker sent the store nothing after SIGTERM: ${r.out}`);
  assert.match(r.out, /the store's calls were cut 5s after SIGTERM \(\?grace=\)/);
  assert.doesNotMatch(r.out, /TimeoutError|timed out/i);
  const journals = readdirSync(r.dir).filter((n) => n.endsWith('.journal.jsonl'));
  assert.equal(journals.length, 1, `${journals.join(', ')}\n${r.out}`);
  const local = readFileSync(join(r.dir, journals[0]!), 'utf8');
  assert.match(local.trim().split('\n').at(-1)!, /^\{"t":"answer",.*"error":"API_ABORTED"/);
  assert.doesNotMatch(local, /"t":"finish"/);
  assert.ok(existsSync(r.json), `no report written: ${r.out}`);
  // Its report: the worker cancelled, the site's write in doubt (the next attempt takes the site over and reads it back).
  const report = JSON.parse(readFileSync(r.json, 'utf8')) as {
    shard: { end: string; sites: string[] };
    counts: { inDoubt: number };
  };
  assert.equal(report.shard.end, 'cancelled', r.out);
  assert.equal(report.counts.inDoubt, 1, r.out);
  assert.match(
    r.out,
    /cannot write runs\/\S+\/journal\/[0-9]{8} \(whether it was written is unknown\): the store's calls were cut 5s after SIGTERM/,
  );
});

test('SIGTERM to a shard worker whose S3 store stopped answering as it starts (reading the manifest): its store calls are cut after their grace, exit 143', async (t) => {
  const r = await workerOverHeldStore(t, false);
  assert.equal(r.code, 143, r.out);
  assert.match(r.out, /the store's calls were cut 5s after SIGTERM \(\?grace=\)/);
  assert.doesNotMatch(r.out, /TimeoutError|timed out/i);
});
