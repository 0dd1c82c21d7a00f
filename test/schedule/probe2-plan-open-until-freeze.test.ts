// Probe: `plan` shows "per site, whether its window is open or when it next opens"
// (pipeline-format.md, Windows and freezes), and "a freeze beats every window". A site inside a
// window that a freeze cuts short is told "open until" the window's end, hours after the freeze
// begins: an operator reading the plan takes the site as writable until then, though every write
// of it is refused from the freeze's start (the write's own line says so, the site's line not).
// plan reads this machine's clock: the window and the freeze are set around its current hour.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

test('plan does not say a site is open until its window ends when a freeze begins before then', async () => {
  // The window opened the hour before this one and lasts 4h; the freeze holds from 1h30m after this hour begins, for 30m.
  const opened = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
  const windowEnds = opened + 4 * HOUR;
  const freezeFrom = opened + 2.5 * HOUR;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe2-plan-freeze-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
windows:
  night: { cron: '0 ${new Date(opened).getUTCHours()} * * *', duration: 4h, zone: UTC }
freezes:
  incident:
    zone: UTC
    dates: [{ from: "${at(freezeFrom)}", to: "${at(freezeFrom + HOUR / 2)}" }]
steps:
  - id: clear
    uses: transaction-log/clear
    expected: 10m
`,
  );
  const plan = await runCli(['plan', file, '--emulator']);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
  const site = plan.stdout.split('\n').find((l) => /^ {2}every instance: /.test(l));
  assert.ok(site, plan.stdout);
  const until = /open until (\S+)/.exec(site)?.[1];
  assert.ok(
    until === undefined || Date.parse(until) <= freezeFrom,
    `plan says "${site.trim()}" (the window's end ${at(windowEnds)}), though freeze "incident" holds from ${at(freezeFrom)}:\n${plan.stdout}`,
  );
});
