// A journal that holds a lease record is of journal version 4 (version 3's records and hashes,
// and the `lease` record): an enginectl that reads versions 2 and 3 refuses it at its run record
// with the version refusal ("a journal of version 4"), not as a damaged record at the lease line.
// A journal with no lease record stays version 3, readable by those versions; this enginectl
// reads both (report rebuilt from the store).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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

test('a journal with a lease record is version 4, one without stays version 3; this enginectl reads both', async (t) => {
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
  assert.deepEqual(versions, { leased: [4], plain: [3] });
});
