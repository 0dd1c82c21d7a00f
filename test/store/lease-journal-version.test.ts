// A journal that holds a lease record is of journal version 4 (version 3's records and hashes,
// and the `lease` record): an enginectl that reads versions 2 and 3 refuses it at its run record
// with the version refusal ("a journal of version 4"), not as a damaged record at the lease line.
// So is the journal of every run of a store: its runner holds the run's own lease, which an
// enginectl that reads versions 2 and 3 holds not, or takes over from a live runner, so it would go on with a run a live runner
// holds (its write in flight read as in doubt, and sent again on --in-doubt retry). A journal file
// of a run without a store (--journal F, held by its lock file) stays version 3, readable by
// those versions; this enginectl reads both (report rebuilt from the store, and from the file).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { decodeJournal } from '../../src/journal/frame.ts';
import { parseRecords } from '../../src/journal/read.ts';
import { readStoredJournal } from '../../src/journal/replica.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = (lease: string) => `version: 1
name: Versioned release
${lease}
steps:
  - uses: monitoring/alerts
    with: { fail-on: none }
`;

test('a journal with a lease record is version 4, so is a stored run without a fleet lease (its own lease), a journal file stays version 3; this enginectl reads both', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-version-'));
  mkdirSync(join(dir, 'store'));
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    ENGINECTL_STORE: pathToFileURL(join(dir, 'store')).href,
  };
  const store = new DirectoryStore(env.ENGINECTL_STORE);
  const versions: Record<string, number[]> = {};
  const ids: Record<string, string> = {};
  for (const [tag, lease] of [
    ['leased', 'lease: { name: prod-fleet, ttl: 10m, wait: 0s }'],
    ['plain', ''],
  ] as const) {
    const file = join(dir, `${tag}.yml`);
    writeFileSync(file, PIPELINE(lease));
    const r = await runCli(['run', file], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const id = /^run: (\S+) in /m.exec(r.stdout)?.[1];
    assert.ok(id, r.stdout);
    ids[tag] = id!;
    const records = parseRecords(decodeJournal((await readStoredJournal(store, id!)).text), `run ${id}`);
    assert.equal(
      records.some((x) => x.t === 'lease'),
      tag === 'leased',
      records.map((x) => x.t).join(', '),
    );
    versions[tag] = records.flatMap((x) => (x.t === 'run' ? [x.v] : []));
    const rebuilt = await runCli(['report', '--run', id!, '--report-json', join(dir, `${tag}.json`)], { env });
    assert.equal(rebuilt.code, 0, rebuilt.stdout + rebuilt.stderr);
  }
  // A run of a journal file, no store: held by its lock file, which every version knows.
  const file = join(dir, 'local.yml');
  writeFileSync(file, PIPELINE(''));
  const journal = join(dir, 'local.jsonl');
  const { ENGINECTL_STORE: _store, ...noStore } = env;
  const local = await runCli(['run', file, '--journal', journal], { env: noStore });
  assert.equal(local.code, 0, local.stdout + local.stderr);
  versions.local = parseRecords(decodeJournal(readFileSync(journal, 'utf8')), journal).flatMap((x) =>
    x.t === 'run' ? [x.v] : [],
  );
  const rebuilt = await runCli(['report', journal], { env });
  assert.equal(rebuilt.code, 0, rebuilt.stdout + rebuilt.stderr);
  // The resume of a stored run holds its own lease too: its run record says 4 as well.
  const resumed = await runCli(['run', join(dir, 'plain.yml'), '--resume', ids.plain!], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const again = parseRecords(decodeJournal((await readStoredJournal(store, ids.plain!)).text), `run ${ids.plain}`);
  versions.resumed = again.flatMap((x) => (x.t === 'run' ? [x.v] : []));
  assert.deepEqual(versions, { leased: [4], plain: [4], local: [3], resumed: [4, 4] });
});
