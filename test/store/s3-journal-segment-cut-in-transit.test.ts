// A segment of a run's journal read from S3 with its body cut in transit (a proxy between that
// rewrote it and its Content-Length: Ceph's RADOS Gateway behind test/helpers/s3-proxy.ts) is read
// once more before it is called damaged, as lease and shard records are: a segment is whole
// records, each line framed with its CRC, so a cut one is told from a whole one. Cut once, the
// second read is used; read the same twice, it is STORE_DAMAGED, its hint to read it with another
// client first. Before, the cut last segment read as a torn last record (what a run killed while
// writing leaves), the run's finish left out: `report --store --run` said so, and reported a run
// that had not finished. `report --store URL --run ID` through the CLI in this process.
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalPrefix } from '../../src/journal/replica.ts';
import { S3Store } from '../../src/store/s3.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { proxyInFront, rewritten } from '../helpers/s3-proxy.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** A run kept in the store, then `report --store --run` through a proxy cutting its last segment in half `cuts` times. */
async function reportCut(t: TestContext, cuts: number) {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-segment-cut-'));
  const file = join(dir, 'upd.yml');
  writeFileSync(
    file,
    `version: 1
name: Update
steps:
  - id: upd
    uses: classes/update
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`,
  );
  const env = { ...ceph.env, ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const prefix = `segment-cut-${Date.now()}-${cuts}`;
  const ran = await runCli(['run', file, '--store', ceph.storeUrl(prefix)], { env });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const id = /^run: (\S+) in /m.exec(ran.stdout + ran.stderr)?.[1];
  assert.ok(id, ran.stdout + ran.stderr);
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  const last = (await store.list(journalPrefix(id))).at(-1)!;
  let cut = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (method !== 'GET' || !path.endsWith(`/${last}`) || cut >= cuts) return;
      cut += 1;
      return rewritten((body) => body.slice(0, Math.floor(body.length / 2)));
    },
  );
  const r = await runCli(['report', '--store', ceph.storeUrl(prefix, proxy), '--run', id], { env: ceph.env });
  return { ...r, said: r.stdout + r.stderr, cut, last };
}

test('a journal segment cut in transit once is read again: report --store --run reads the whole run, no torn record', async (t) => {
  const r = await reportCut(t, 1);
  assert.equal(r.cut, 1, r.said);
  assert.equal(r.code, 0, r.said);
  assert.doesNotMatch(r.said, /torn|STORE_DAMAGED/);
  assert.match(r.said, /succeeded/i);
});

test('a journal segment read cut the same twice is STORE_DAMAGED, its hint to read it with another client first', async (t) => {
  const r = await reportCut(t, 2);
  assert.equal(r.cut, 2, r.said);
  assert.equal(r.code, 1, r.said);
  assert.match(r.said, /code: STORE_DAMAGED/);
  assert.ok(r.said.includes(`${r.last} is not a segment of a journal of enginectl`), r.said);
  assert.match(r.said, /hint: it was read twice, the same both times: read it with another client \(aws s3 cp /);
});
