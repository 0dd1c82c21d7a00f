// A freeze's dates written at a local time a change of offset skips or repeats: the freeze holds
// from the earliest instant its start can name to the latest its end can. Before, a start skipped
// by the spring-forward night was read as croner reads a one-shot time, forward by the skip's
// length: `from: 2026-03-08T02:30` in New York began at 03:30 EDT, and a write at 03:10 EDT, inside
// what any reading of the freeze covers, was sent.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

async function clearAt(clock: string, freeze: string) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-freeze-dst-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1\nfreezes:\n  change: ${freeze}\nsteps:\n  - { id: clear, uses: transaction-log/clear, expected: 10m }\n`,
  );
  const r = await runCli(['run', file, '--emulator', '--clock', clock, '--report-json', join(dir, 'r.json')]);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    steps: { id: string; outcome: string; window: { verdict: string } | null }[];
  };
  return { ...r, clear: report.steps.find((s) => s.id === 'clear')! };
}

test('a freeze from 02:30 on the spring-forward night (New York: 02:00 EST is 03:00 EDT) holds from the skip: a write at 03:10 EDT is not sent', async () => {
  const freeze = "{ zone: America/New_York, dates: [{ from: '2026-03-08T02:30', to: '2026-03-09' }] }";
  const inside = await clearAt('2026-03-08T07:10:00Z', freeze);
  assert.equal(inside.code, 1, inside.stdout + inside.stderr);
  assert.equal(inside.clear.outcome, 'failure');
  assert.equal(inside.clear.window?.verdict, 'frozen');
  const before = await clearAt('2026-03-08T06:40:00Z', freeze);
  assert.equal(before.code, 0, `01:40 EST, before the freeze: sent\n${before.stdout}${before.stderr}`);
});

test('a freeze to 01:30 on the fall-back night (01:30 happens twice) holds until the second one: a write at 01:40 EDT is not sent', async () => {
  const freeze = "{ zone: America/New_York, dates: [{ from: '2026-10-31', to: '2026-11-01T01:30' }] }";
  const between = await clearAt('2026-11-01T05:40:00Z', freeze);
  assert.equal(between.code, 1, between.stdout + between.stderr);
  assert.equal(between.clear.window?.verdict, 'frozen');
  const after = await clearAt('2026-11-01T06:31:00Z', freeze);
  assert.equal(after.code, 0, `01:31 EST, after the second 01:30: sent\n${after.stdout}${after.stderr}`);
});

test('a freeze from 02:15 on Lord Howe’s spring-forward night (02:00 is 02:30, a half-hour change) holds from 02:30: a write at 02:31 is not sent', async () => {
  const freeze = "{ zone: Australia/Lord_Howe, dates: [{ from: '2026-10-04T02:15', to: '2026-10-05' }] }";
  const inside = await clearAt('2026-10-03T15:31:00Z', freeze);
  assert.equal(inside.code, 1, inside.stdout + inside.stderr);
  assert.equal(inside.clear.window?.verdict, 'frozen');
});

test('a freeze whose range ends before it begins on the fall-back night (from 01:45 to 01:15, both after 01:00 twice) is refused at validate, as on any other night', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-freeze-dst-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    "version: 1\nfreezes:\n  change: { zone: America/New_York, dates: [{ from: '2026-11-01T01:45', to: '2026-11-01T01:15' }] }\nsteps:\n  - { id: clear, uses: transaction-log/clear, expected: 10m }\n",
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /p\.yml:3:\d+ the range ends \(2026-11-01T01:15\) before it begins/);
});

test('a freeze date with its offset that names a day its month does not have (2026-02-30T00:00Z) is refused at validate, as one without an offset is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-freeze-dst-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    "version: 1\nfreezes:\n  change: { zone: UTC, dates: [{ from: '2026-02-30T00:00Z', to: '2026-03-05T00:00Z' }] }\nsteps:\n  - { id: clear, uses: transaction-log/clear, expected: 10m }\n",
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /"2026-02-30T00:00Z" is no date/);
});
