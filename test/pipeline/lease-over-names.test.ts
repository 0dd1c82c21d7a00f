// lease: { over: KEY } takes a lease per value (NAME.VALUE), and a lease's name is at most 100
// characters: a value that makes a longer one is refused by validate, at the value's place in the
// file, with the limit; and a name refused at run time says its length, not only its characters.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const LONG = `${'eu-west-datacenter-'.repeat(6)}x`;

test('lease: { over: site } with a site whose lease name is over 100 characters: validate refuses it at file:line:col with the limit (exit 2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-over-'));
  const file = join(dir, 'over.yml');
  writeFileSync(
    file,
    `version: 1
name: over
lease: { name: prod-fleet, over: site }
steps:
  - id: a
    uses: monitoring/alerts
    matrix: { site: [${LONG}, paris] }
    with: { fail-on: critical }
`,
  );
  const r = await runCli(['validate', file]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.match(
    r.stdout + r.stderr,
    new RegExp(
      `over\\.yml:7:22 lease prod-fleet\\.${LONG} is ${`prod-fleet.${LONG}`.length} characters long, over the 100 a lease's name may have`,
    ),
    said,
  );
  assert.doesNotMatch(r.stdout + r.stderr, /paris/, said);
});

test('a lease name over 100 characters given at run time (--lease) is refused saying its length', async () => {
  const store = mkdtempSync(join(tmpdir(), 'enginectl-lease-long-'));
  const r = await runCli(['lease', 'status', `prod-${LONG}`, '--store', `file://${store}`]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.match(r.stderr, /is 120 characters long, over the 100 a lease's name may have/, said);
});
