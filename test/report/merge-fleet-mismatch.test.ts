// report --merge of two jobs whose fleets differ (an inventory the environment chose, a --var)
// says how they differ, in a line: before, it printed both fleets whole, 600 site names for a
// 300-site fleet with one site swapped.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const SITES = Array.from({ length: 300 }, (_, i) => `site-${String(i + 1).padStart(3, '0')}`);

const PIPELINE = `version: 1
name: Fleet
vars:
  sites: [${SITES.join(', ')}]
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - name: "Clear \${{ matrix.site }}"
    uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
`;

test('report --merge of jobs of two fleets says how they differ (a site missing, one twice, another order), not both fleets whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-fleets-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const first = join(dir, 'one.json');
  const r = await runCli(['run', file, '--emulator', '--only', 'site=site-001', '--report-json', first]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(first, 'utf8')) as { matrix: Record<string, string[]> };
  const other = (name: string, sites: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ ...report, matrix: { site: sites } }));
    return path;
  };
  const cases: [string[], RegExp][] = [
    [
      SITES.map((s) => (s === 'site-003' ? 'site-002' : s)),
      /its fleet's site has site-002 once more and lacks site-003/,
    ],
    [SITES.filter((s) => s !== 'site-150' && s !== 'site-151'), /its fleet's site lacks site-150, site-151/],
    [[...SITES, 'site-301'], /its fleet's site adds site-301/],
    [[...SITES].reverse(), /its fleet's site holds the same values in another order/],
  ];
  for (const [sites, said] of cases) {
    const merged = await runCli(['report', '--merge', first, other('two.json', sites)]);
    assert.equal(merged.code, 2, merged.stderr);
    assert.match(merged.stderr, /two\.json is a report of another fleet than .*one\.json/);
    assert.match(merged.stderr, said);
    assert.match(merged.stderr, /code: MERGE_MISMATCH/);
    assert.ok(merged.stderr.length < 600, `${merged.stderr.length} characters:\n${merged.stderr}`);
  }
});

test("report --merge of jobs whose fleets differ by a key named as an object's own (toString, constructor) says so, not an internal error", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-fleet-keys-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const first = join(dir, 'one.json');
  const r = await runCli(['run', file, '--emulator', '--only', 'site=site-001', '--report-json', first]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(first, 'utf8')) as { matrix: Record<string, string[]> };
  const other = join(dir, 'two.json');
  writeFileSync(
    other,
    JSON.stringify({ ...report, matrix: { ...report.matrix, toString: ['x'], constructor: ['y'] } }),
  );
  for (const [args, said] of [
    [[other, first], /its fleet has no key toString; its fleet has no key constructor/],
    [
      [first, other],
      /its fleet has a key toString the other's has not; its fleet has a key constructor the other's has not/,
    ],
  ] as const) {
    const merged = await runCli(['report', '--merge', ...args]);
    assert.equal(merged.code, 2, merged.stderr);
    assert.doesNotMatch(merged.stderr, /internal error/);
    assert.match(merged.stderr, said);
    assert.match(merged.stderr, /code: MERGE_MISMATCH/);
  }
});

test('report --merge of fleets that differ by values held more or fewer times says how many, and never that a value both hold was added or is lacking', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-fleet-counts-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const first = join(dir, 'one.json');
  const r = await runCli(['run', file, '--emulator', '--only', 'site=site-001', '--report-json', first]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(first, 'utf8')) as { matrix: Record<string, string[]> };
  const write = (name: string, sites: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ ...report, matrix: { site: sites } }));
    return path;
  };
  const cases: [string[], string[], RegExp][] = [
    [SITES, [...SITES, 'site-002', 'site-002'], /its fleet's site has site-002 2 times more$/m],
    [
      SITES,
      [...SITES.filter((s) => s !== 'site-003'), 'site-002', 'site-999'],
      /its fleet's site adds site-999 and has site-002 once more and lacks site-003$/m,
    ],
    [[...SITES, 'site-002', 'site-002'], SITES, /its fleet's site has site-002 2 times less$/m],
  ];
  for (const [one, two, said] of cases) {
    const merged = await runCli(['report', '--merge', write('a.json', one), write('b.json', two)]);
    assert.equal(merged.code, 2, merged.stderr);
    assert.match(merged.stderr, said);
    assert.match(merged.stderr, /code: MERGE_MISMATCH/);
  }
  // The same keys and values, the keys in another order: said so, not "its fleet differs".
  const keyed = (name: string, matrix: Record<string, string[]>) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ ...report, matrix }));
    return path;
  };
  const merged = await runCli([
    'report',
    '--merge',
    keyed('c.json', { site: SITES, region: ['eu'] }),
    keyed('d.json', { region: ['eu'], site: SITES }),
  ]);
  assert.equal(merged.code, 2, merged.stderr);
  assert.match(
    merged.stderr,
    /d\.json is a report of another fleet than .*c\.json: its fleet's keys are in another order$/m,
  );
});

test('report --merge of fleets whose values or keys read alike only when joined ("a, b" and a, b) refuses them as two fleets', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-fleet-joined-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, PIPELINE);
  const first = join(dir, 'one.json');
  const r = await runCli(['run', file, '--emulator', '--only', 'site=site-001', '--report-json', first]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(first, 'utf8')) as { matrix: Record<string, string[]> };
  const write = (name: string, matrix: Record<string, string[]>) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ ...report, matrix }));
    return path;
  };
  const cases: [Record<string, string[]>, Record<string, string[]>, RegExp][] = [
    [
      { site: ['eu-1, eu-2'] },
      { site: ['eu-1', 'eu-2'] },
      /its fleet's site adds "eu-1", "eu-2" and lacks "eu-1, eu-2"$/m,
    ],
    [{ site: ['a; region=eu'] }, { site: ['a'], region: ['eu'] }, /its fleet has a key region the other's has not/],
  ];
  for (const [one, two, said] of cases) {
    const merged = await runCli(['report', '--merge', write('a.json', one), write('b.json', two)]);
    assert.equal(merged.code, 2, merged.stdout + merged.stderr);
    assert.match(merged.stderr, /b\.json is a report of another fleet than .*a\.json/);
    assert.match(merged.stderr, said);
    assert.match(merged.stderr, /code: MERGE_MISMATCH/);
  }
});
