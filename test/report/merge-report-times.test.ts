// report --merge reads the jobs' JSON reports, files from outside: a time in one that is not a
// time (`startedAt: "yesterday"`) is refused as the report it is not (exit 2, BAD_REPORT, the
// field named), never an internal error of the merge.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildReport, renderJson } from '../../src/report/index.ts';
import { fleetRun } from '../helpers/fleet-report.ts';
import { runCli } from '../helpers/cli.ts';

for (const [what, edit, field] of [
  ['the run', (r: Record<string, unknown>) => (r.startedAt = 'yesterday'), 'startedAt'],
  [
    'a step',
    (r: Record<string, unknown>) => ((r.steps as Record<string, unknown>[])[0]!.startedAt = ''),
    'steps.0.startedAt',
  ],
] as const) {
  test(`report --merge refuses a job report in which ${what}'s start is not a time`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-times-'));
    const report = JSON.parse(renderJson(buildReport(fleetRun(3)))) as Record<string, unknown>;
    edit(report);
    writeFileSync(join(dir, 'job.json'), JSON.stringify(report));
    const r = await runCli(['report', '--merge', join(dir, 'job.json'), '--summary', join(dir, 's.md')]);
    assert.doesNotMatch(r.stderr, /internal error/);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`is not a JSON report of this enginectl: ${field.replace(/\./g, '\\.')}: not an ISO 8601 time`),
    );
    assert.match(r.stderr, /code: BAD_REPORT/);
  });
}
