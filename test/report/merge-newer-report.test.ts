// report --merge of a fleet whose jobs ran different enginectl versions: a JSON report of a later
// reportVersion (a job on a newer enginectl) is refused saying so, with what to do (merge with
// that enginectl or a later one), not as "reportVersion: Invalid input: expected 1"; a file with
// no reportVersion is no report of enginectl. A report of this version merges.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test("report --merge of a JSON report of a newer reportVersion refuses it as a newer enginectl's (BAD_REPORT, exit 2); one without a version as no report", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-newer-'));
  const json = join(dir, 'job.json');
  const ran = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--report-json', json]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
  const merged = await runCli(['report', '--merge', json, '--report-json', join(dir, 'merged.json')]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);

  const newer = join(dir, 'newer.json');
  writeFileSync(newer, JSON.stringify({ ...report, reportVersion: 2, aFieldOfVersion2: true }));
  const r = await runCli(['report', '--merge', newer]);
  const said = r.stdout + r.stderr;
  assert.equal(r.code, 2, said);
  assert.match(said, /code: BAD_REPORT/);
  assert.match(
    said,
    /newer\.json is a JSON report of version 2, written by a newer enginectl than this one \(which reads version 1\)/,
  );
  assert.match(said, /hint: merge the reports with that enginectl or a later one/);
  assert.doesNotMatch(said, /Invalid input/);

  const none = join(dir, 'none.json');
  const { reportVersion: _v, ...rest } = report;
  writeFileSync(none, JSON.stringify(rest));
  const n = await runCli(['report', '--merge', none]);
  assert.equal(n.code, 2, n.stdout + n.stderr);
  assert.match(n.stderr, /none\.json is not a JSON report of this enginectl: it has no reportVersion/);
});

test('report --merge of reports of another pipeline hash written by two enginectl versions says the versions differ, as the cause it may be', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-versions-'));
  const json = join(dir, 'job.json');
  const ran = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--report-json', json]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as {
    tool: { name: string; version: string };
    pipeline: { sha256: string };
    steps: unknown[];
  };
  // The same job's report as an earlier enginectl wrote it: its version, and the files hashed otherwise.
  const earlier = join(dir, 'earlier.json');
  writeFileSync(
    earlier,
    JSON.stringify({
      ...report,
      tool: { ...report.tool, version: '0.0.9' },
      pipeline: { ...report.pipeline, sha256: `sha256:${'0'.repeat(64)}` },
    }),
  );
  const r = await runCli(['report', '--merge', earlier, json]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: MERGE_MISMATCH/);
  assert.match(
    r.stderr,
    new RegExp(
      `job\\.json is a report of another pipeline than .*earlier\\.json \\(.*: other files or other --var values, or the same hashed otherwise: the reports are of enginectl ${report.tool.version.replaceAll('.', '\\.')} and 0\\.0\\.9\\)`,
    ),
  );
  assert.match(r.stderr, /hint: run every job of one release on one enginectl version/);
});
