// A fleet's summary leads with what failed or is in doubt, whatever else the run left: a rollout
// halted at its first wave leaves 2,970 instances not started, and a merge of three jobs' reports
// of a 1,000-site fleet names 997 sites without a report. Before, the never-started instances were
// listed as failures (656 lines of "not started", the one real failure and its hint gone), and the
// merge's header named every reportless site, its job rows ahead of the failures (the failure's
// hint cut), and a row per job that succeeded.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const SITES = Array.from({ length: 1000 }, (_, i) => `site-${String(i + 1).padStart(4, '0')}`);

function fleetPipeline(rollout: string): string {
  const step = (text: string) => `${text}\n    matrix: { site: "\${{ vars.sites }}" }\n    server: \${{ matrix.site }}`;
  return `version: 1
name: Fleet release
vars:
  sites: [${SITES.join(', ')}]
servers:
${SITES.map((s) => `  ${s}: { url: "https://${s}.example.com", username: admin, password: admin }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
${rollout}steps:
  - ${step('uses: monitoring/alerts')}
    with: { fail-on: critical }
  - ${step('uses: update/vfs')}
    with: { target: prod, files: [1001] }
  - ${step('uses: update/system')}
    with: { target: prod }
`;
}

const FAULT = [
  '--fault',
  'POST /api/devops/v1/update/vfs site=site-0003 status=409 body={"message":"vfs-file-1001-locked-at-site-0003"}',
];

function tempDir(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fleet-lead-'));
  t.after(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));
  return dir;
}

test('a rollout halted at its first wave: the summary lists the failure with what to do, not the 2,970 instances the halt left not started (counted by step)', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, fleetPipeline('rollout:\n  over: site\n  waves: [1%, rest]\n  max-failures: 1\n'));
  const r = await runCli([
    'run',
    file,
    '--emulator',
    ...FAULT,
    '--fault',
    'POST /api/devops/v1/update/system site=site-0002 reset=after',
    '--summary',
    join(dir, 'fleet.md'),
    '--html',
    join(dir, 'fleet.html'),
  ]);
  assert.equal(r.code, 1, r.stdout.slice(-2000) + r.stderr);
  // The grid's legend counts the failed call that may have been applied in doubt, as the header does.
  const html = readFileSync(join(dir, 'fleet.html'), 'utf8');
  assert.match(html, /1 in doubt/);
  assert.match(html, /<span><i style="background:#cf222e"><\/i>failure 2 \(1 in doubt\)<\/span>/);
  const text = readFileSync(join(dir, 'fleet.md'), 'utf8');
  assert.match(text, /^- \*\*.*site=site-0003.*\*\* \(`update\/vfs`\): .*vfs-file-1001-locked-at-site-0003/m);
  assert.match(text, /^ {2}- what to do: /m);
  assert.doesNotMatch(
    text,
    /not started: the rollout halted|ROLLOUT_HALTED/,
    'the never-started are counted, not listed',
  );
  assert.doesNotMatch(text, /The summary was cut/);
  const rows = text.match(/^\| (❌|⏹️|⚠️) \|/gm) ?? [];
  assert.ok(rows.length <= 3, `the failed or in-doubt rows: ${rows.length}`);
  assert.match(text, /^\| ❌ \| System update prod \(site=site-0002\) \(in doubt\) \|/m);
  assert.match(text, /^\| 2 \| `update\/vfs` \| 1000 \| \d+ succeeded, 1 failed, \d+ cancelled/m);
});

test("a merge of three jobs' reports of a 1,000-site fleet: the header counts the 997 sites without a report (naming a few), the failure and its hint are kept, no row of a job that succeeded", async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, fleetPipeline(''));
  const job = async (name: string, sites: string[]) => {
    const json = join(dir, `${name}.json`);
    const only = sites.flatMap((s) => ['--only', `site=${s}`]);
    const r = await runCli(['run', file, '--emulator', ...FAULT, ...only, '--report-json', json]);
    assert.ok(r.code === 0 || r.code === 1, r.stdout + r.stderr);
    return json;
  };
  const reports = [
    await job('one', ['site-0001']),
    await job('two', ['site-0002', 'site-0003']),
    await job('four', ['site-0004']),
  ];
  const merged = await runCli([
    'report',
    '--merge',
    ...reports,
    '--summary',
    join(dir, 'merged.md'),
    '--html',
    join(dir, 'merged.html'),
  ]);
  assert.equal(merged.code, 1, merged.stdout.slice(-2000) + merged.stderr);
  const text = readFileSync(join(dir, 'merged.md'), 'utf8');
  const header = text.split('\n').find((l) => l.includes('merged from'))!;
  assert.match(
    header,
    /merged from 3 job report\(s\), 996 instance\(s\) without a report \(site=site-0005, .* and 986 more\)/,
  );
  assert.ok(Buffer.byteLength(header) < 1024, `the header line is ${Buffer.byteLength(header)} bytes`);
  assert.match(text, /vfs-file-1001-locked-at-site-0003/);
  assert.match(text, /^ {2}- what to do: /m);
  assert.doesNotMatch(text, /^\| ✅ \|/m, 'no row of what succeeded, jobs included');
  assert.match(text, /^2 job\(s\) succeeded: each is in /m);
  assert.ok(Buffer.byteLength(text) <= 64 * 1024, `${Buffer.byteLength(text)} bytes`);
  // The HTML grid has a tile for every site of the fleet: those without a report after the failures.
  const html = readFileSync(join(dir, 'merged.html'), 'utf8');
  assert.match(html, /<h2>site: 1,000 at a glance<\/h2>/);
  assert.match(html, /<h3>Failed or in doubt: 1 site\(s\)<\/h3>/);
  assert.match(html, /<h3>No report: 996 site\(s\)<\/h3>/);
  assert.equal(html.match(/class="x" title="site-\d+ · no report/g)?.length, 996);
  assert.ok(html.indexOf('Failed or in doubt:') < html.indexOf('No report:'));
});

test("a merge of 1,000 jobs that all failed: the summary keeps failures' messages and what to do beside the jobs' rows, not rows alone", async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'fleet.yml');
  writeFileSync(file, fleetPipeline(''));
  const one = join(dir, 'site-0003.json');
  const r = await runCli(['run', file, '--emulator', ...FAULT, '--only', 'site=site-0003', '--report-json', one]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  // One real job's report, as each of 1,000 jobs whose update was refused would write it.
  const template = readFileSync(one, 'utf8');
  const files = SITES.map((site) => {
    const path = join(dir, `job-${site}.json`);
    const report = JSON.parse(template.replaceAll('site-0003', site)) as Record<string, unknown>;
    report.matrix = { site: SITES };
    writeFileSync(path, JSON.stringify(report));
    return path;
  });
  const merged = await runCli(['report', '--merge', ...files, '--summary', join(dir, 'merged.md')]);
  assert.equal(merged.code, 1, merged.stdout.slice(-2000) + merged.stderr);
  const text = readFileSync(join(dir, 'merged.md'), 'utf8');
  assert.ok(Buffer.byteLength(text) <= 64 * 1024, `${Buffer.byteLength(text)} bytes`);
  const rows = text.match(/^\| ❌ \| site=site-\d+ \| failure \|/gm) ?? [];
  const messages =
    text.match(/^- \*\*.*site=site-\d+.*\*\* \(`update\/vfs`\): .*vfs-file-1001-locked-at-site-\d+/gm) ?? [];
  const hints = text.match(/^ {2}- what to do: /gm) ?? [];
  t.diagnostic(`${rows.length} job rows, ${messages.length} failures' messages, ${hints.length} hints`);
  assert.ok(rows.length >= 50, `job rows: ${rows.length}`);
  assert.ok(messages.length >= 50, `failures' messages: ${messages.length}`);
  assert.equal(hints.length, messages.length, 'each failure kept with what to do');
  assert.match(text, /The summary was cut/);
});
