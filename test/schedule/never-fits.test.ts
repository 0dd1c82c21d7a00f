// A write no window within the horizon admits (its need, expected: plus the margin, is longer than
// any opening of its windows) is refused before the run sends anything, at its step's line. Before,
// validate accepted it and the run sent the writes before it, then failed it WINDOW_CLOSED: half
// the change applied, for a pipeline that could never run whole.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
windows:
  night: { cron: '0 2 * * *', duration: 4h, zone: UTC }
steps:
  - { id: first, uses: transaction-log/clear, expected: 10m }
  - { id: second, uses: transaction-log/clear, expected: 5h }
`;

test('a write whose need is longer than every window it is under: the run is refused before anything is sent, at its line (exit 2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-never-fits-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'j.jsonl');
  const r = await runCli(['run', file, '--emulator', '--clock', '2026-03-10T02:00:00Z', '--journal', journal]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /p\.yml:6:\d+: .*second.* needs 5h30m .*no window within 400 days fits it/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  const sent = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l.includes('"t":"send"')) : [];
  assert.deepEqual(sent, [], 'nothing was sent');
});

test('the same write under an allowed --override-freeze is not refused before the run: the override admits it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-never-fits-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, `${PIPELINE.replace('version: 1\n', 'version: 1\noverride-freeze: [alice]\n')}`);
  const r = await runCli(
    ['run', file, '--emulator', '--clock', '2026-03-10T02:00:00Z', '--override-freeze', '--reason', 'INC-7'],
    { env: { USER: 'alice' } },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
});
