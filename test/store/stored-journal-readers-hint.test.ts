// The readers of a stored run's journal besides report/verify --store --run and run --resume:
// decide --store URL --run ID, runs --store URL, and a fleet lease's takeover, which reads the
// expired holder's journal from the store. A record of its journal that no run writes (a type no
// enginectl writes, a status with no send before it) is refused by each. Before, each read it
// with the words of a local file ("give the file written by enginectl run --journal", "this file
// was altered"), and the takeover's refusal kept none of the journal's hint ("check each on the
// server"). Now each says where the record is in the store (its segment's key) and what to do.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, type LeaseClock } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
lease: { name: prod-fleet, ttl: 10m, wait: 0s }
steps:
  - uses: transaction-log/clear
`;

/** A run of the store, ended, whose journal's last segment gets `record` appended; the key of that segment. */
async function storedRun(record: object) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-stored-readers-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  const store = join(dir, 'store');
  mkdirSync(store);
  const url = `file://${store}`;
  const first = await runCli(['run', file, '--emulator', '--store', url]);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const [id] = readdirSync(join(store, 'runs'));
  const names = readdirSync(join(store, 'runs', id!, 'journal')).sort();
  const last = `runs/${id}/journal/${names.findLast((n) => readFileSync(join(store, 'runs', id!, 'journal', n)).length > 0)}`;
  writeFileSync(join(store, last), readFileSync(join(store, last), 'utf8') + encodeLine(record));
  return { file, url, id: id!, last };
}

const RECORDS = {
  'a record of a type no enginectl writes': { t: 'weird', at: Date.now() },
  'a status record with no send before it': {
    t: 'status',
    key: 'clear',
    at: Date.now(),
    method: 'POST',
    path: '/x',
    status: 200,
  },
};

function assertStoreWords(out: string, s: { url: string; id: string; last: string }): void {
  assert.doesNotMatch(out, /give the file written by|this file|enginectl run --journal/, out);
  assert.ok(out.includes(`${s.last} in ${s.url}`), `the hint names the segment's key and the store\n${out}`);
  assert.match(out, /put it back from a copy of the store \(S3 versioning, a backup\)/, out);
  assert.ok(out.includes(`give run ${s.id} up and start anew`), out);
}

for (const [what, record] of Object.entries(RECORDS)) {
  test(`decide --store --run and runs --store of a stored run holding ${what}: refused, the hint the store's, not a --journal file's`, async () => {
    const s = await storedRun(record);
    for (const args of [
      ['decide', '--store', s.url, '--run', s.id],
      ['runs', '--store', s.url],
    ]) {
      const r = await runCli(args);
      const out = `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`;
      assert.equal(r.code, 2, out);
      assert.match(r.stderr, /code: BAD_JOURNAL/, out);
      assertStoreWords(r.stderr, s);
    }
  });

  test(`a fleet lease expired in the hands of a run whose stored journal holds ${what}: the takeover refused, its hint saying where the record is in the store`, async () => {
    const s = await storedRun(record);
    const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
    await acquireLease(new DirectoryStore(s.url), 'prod-fleet', {
      holder: { runId: s.id, actor: 'night-job', host: 'runner-7' },
      ttlMs: 60_000,
      waitMs: 0,
      clock: hourAgo,
      verifyTakeover: async () => ({ evidence: [] }),
    });
    const r = await runCli(['run', s.file, '--emulator', '--store', s.url]);
    const out = `exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /code: LEASE_TAKEOVER_REFUSED/, out);
    assert.match(r.stderr, new RegExp(`run ${s.id}'s journal could not be read from the store`), out);
    assertStoreWords(r.stderr, s);
    // Still the operator's way past it, once they checked on the server.
    assert.match(r.stderr, /--take-over --reason/, out);
  });
}
