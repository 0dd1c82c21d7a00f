// The API's contract writes a license's expiration as YYYY-MM-DD. A server that writes it otherwise
// (a date-time, or nothing at all) was read as a license that never expires: licensing/check (and
// the drift audit built on it) said the license held, with no days left counted.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sampleState } from '../../src/emulator/sample-state.ts';
import { runCli } from '../helpers/cli.ts';

const DAY = 86_400_000;

async function check(expiration: string) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-license-expiration-'));
  const state = sampleState(Date.now());
  state.licenses.find((l) => l.productKey === 1)!.expiration = expiration;
  writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
  const file = join(dir, 'check.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - uses: licensing/check
    with: { product: 1, min-days-left: 30 }
`,
  );
  return runCli(['run', file, '--emulator', '--state', join(dir, 'state.json')]);
}

test('licensing/check reads the date of an expiration written as a date-time: 5 days left fails min-days-left 30', async () => {
  const r = await check(`${new Date(Date.now() + 5 * DAY).toISOString().slice(0, 10)}T00:00:00Z`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /expires in [45] day\(s\), fewer than min-days-left 30/);
});

for (const expiration of ['', 'soon'])
  test(`licensing/check with min-days-left fails on an expiration that is no date ("${expiration}"), naming it: the days left cannot be told`, async () => {
    const r = await check(expiration);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /no date \(YYYY-MM-DD\)/);
  });
