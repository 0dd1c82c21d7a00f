// A fleet's summary counts each step's failures by error code. The codes of a merged report are
// read from the jobs' JSON reports, text from outside like their messages: in the summary (and so
// the PR comment) a code is shown as text, in its table cell, never as HTML, a heading, a mention
// or a second row. Through the CLI's report --merge.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Marked } from 'marked';
import { buildReport, renderJson } from '../../src/report/index.ts';
import type { Report } from '../../src/report/model.ts';
import { fleetRun } from '../helpers/fleet-report.ts';
import { runCli } from '../helpers/cli.ts';

const HOSTILE = 'API_X | <img src=https://evil.example/b.png> @jdoe\n## Deployed fine\n';

test("report --merge: a job report's error codes stay text in the fleet summary's step table", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fleet-codes-'));
  const report = JSON.parse(renderJson(buildReport(fleetRun(1000)))) as Report;
  let edited = 0;
  for (const s of report.steps)
    if (s.outcome === 'failure' && s.error) {
      s.error.code = HOSTILE;
      edited++;
    }
  assert.ok(edited > 0, 'the fleet has failures');
  writeFileSync(join(dir, 'job.json'), JSON.stringify(report));
  const r = await runCli(['report', '--merge', join(dir, 'job.json'), '--summary', join(dir, 's.md')]);
  assert.equal(r.code, 1, r.stderr);
  const markdown = readFileSync(join(dir, 's.md'), 'utf8');
  const row = markdown.split('\n').find((line) => line.includes('API_X'));
  assert.ok(row, 'the code is shown');
  assert.match(row, /^\|.*\|$/, `the code stays on its table row: ${row}`);
  const page = new Marked({ gfm: true, async: false }).parse(markdown) as string;
  assert.doesNotMatch(page, /<img/, 'no image loaded from the code');
  assert.doesNotMatch(page, /<h2>Deployed fine/, 'no heading from the code');
  assert.doesNotMatch(markdown, /(^|[^A-Za-z0-9])@jdoe/, 'no mention from the code');
});
