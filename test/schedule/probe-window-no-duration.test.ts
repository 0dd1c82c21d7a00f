// Probe: a window without its duration (required) is told as the missing key it is, and as a
// window: the check written for a recurring freeze also fires for it, calling the window a freeze
// ("freeze "night" recurs (cron) but has no duration"), a finding about a freeze the file has not.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('validate: a window without duration: is not called a freeze', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-window-no-duration-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
windows:
  night:
    cron: "0 2 * * *"
    zone: UTC
steps:
  - { id: clear, uses: transaction-log/clear, expected: 10m }
`,
  );
  const r = await runCli(['validate', file]);
  const said = r.stdout + r.stderr;
  assert.equal(r.code, 2, said);
  assert.match(said, /p\.yml:3:3 missing required key "duration" in windows\.night/);
  assert.doesNotMatch(said, /freeze "night"/, 'night is a window');
});
