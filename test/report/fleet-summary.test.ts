// A fleet's Markdown summary: a 1,000-site release (a gate, a vfs update and a system update per
// site, each site a server of its own) whose summary leads with what failed or is in doubt and
// counts the rest, in a few KiB, each piece made once. Before (issue 44), the summary was fitted by
// rendering it again for each update report it cut (40 s for 1,000 sites, 354 s for 2,000); then it
// was fitted to 1 MiB in one pass, a table of 1,000 rows nobody reads (issue 48).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { renderMarkdown, SUMMARY_LIMIT } from '../../src/report/markdown.ts';
import { updateReportOf, type Report } from '../../src/report/model.ts';

const SITES = Array.from({ length: 1000 }, (_, i) => `site-${String(i + 1).padStart(4, '0')}`);

function fleetPipeline(sites = SITES): string {
  const step = (text: string) =>
    `${text}\n    matrix: { site: "\${{ vars.sites }}" }\n    max-parallel: 50\n    server: \${{ matrix.site }}`;
  return `version: 1
name: 1,000 sites
vars:
  sites: [${sites.join(', ')}]
servers:
${sites.map((s) => `  ${s}: { url: "https://${s}.example.com", username: admin, password: admin }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - ${step('uses: monitoring/alerts')}
    with: { fail-on: critical }
  - ${step('uses: update/vfs')}
    id: vfs
    continue-on-error: true
    with: { target: prod, files: [1001] }
  - ${step('uses: update/system')}
    fail-fast: false
    with: { target: prod }
`;
}

test("a 1,000-site release's summary lists what failed or is in doubt, counts the rest, and stays a few KiB: each piece made once", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fleet-summary-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'fleet.yml'), fleetPipeline());
  // Every 50th site's vfs update is refused; one site's system update loses its answer (in doubt).
  const failing = SITES.filter((_, i) => (i + 1) % 50 === 0);
  const faults = failing.flatMap((site) => [
    '--fault',
    `POST /api/devops/v1/update/vfs site=${site} status=409 body={"message":"vfs-file-1001-locked-at-${site}"}`,
  ]);
  const report = join(dir, 'fleet.json');
  const r = await runCli([
    'run',
    join(dir, 'fleet.yml'),
    '--emulator',
    ...faults,
    '--fault',
    'POST /api/devops/v1/update/system site=site-0777 reset=after',
    '--report-json',
    report,
    '--summary',
    join(dir, 'fleet.md'),
  ]);
  assert.equal(r.code, 1, r.stdout.slice(-3000) + r.stderr);
  const summary = readFileSync(join(dir, 'fleet.md'));
  assert.ok(summary.length <= 16 * 1024, `the summary is ${summary.length} bytes`);
  t.diagnostic(`the summary of 1,000 sites: ${summary.length} bytes`);
  const text = summary.toString('utf8');
  const where = report.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  assert.match(
    text,
    new RegExp(
      `^\\*\\*A fleet of 1,000 site\\(s\\)\\.\\*\\* The 21 step run\\(s\\) that failed or are in doubt are listed first; the other 2,979 are counted by step below, and each is in ${where}\\.$`,
      'm',
    ),
  );
  for (const site of failing) {
    assert.match(
      text,
      new RegExp(
        `^- \\*\\*VFS update prod \\(site=${site}\\)\\*\\* \\(\`update/vfs\`\\): .*vfs-file-1001-locked-at-${site}`,
        'm',
      ),
      `the failure at ${site} is kept`,
    );
    assert.match(
      text,
      new RegExp(`^\\| ❌ \\| VFS update prod \\(site=${site}\\) \\(continue-on-error\\) \\|`, 'm'),
      `and its row`,
    );
  }
  assert.match(
    text,
    /^- \*\*System update prod \(site=site-0777\)\*\* \(`update\/system`\): .*the connection was closed/m,
    'the in-doubt instance is kept',
  );
  assert.match(text, /^\| ❌ \| System update prod \(site=site-0777\) \(in doubt\) \|/m, 'and its row');
  assert.doesNotMatch(text, /^\| ✅ \|/m, 'no row of what succeeded');
  assert.doesNotMatch(text, /The summary was cut/, 'nothing was cut: the rest is counted');
  assert.ok(text.indexOf('### Failed or in doubt') < text.indexOf('### Step runs by step'), 'it leads with them');
  assert.match(text, /^\| 1 \| `monitoring\/alerts` \| 1000 \| 1000 succeeded \|$/m, "each step's counts");
  assert.match(text, /^\| 2 \(vfs\) \| `update\/vfs` \| 1000 \| 980 succeeded, 20 failed \(API_HTTP_STATUS 20\) \|$/m);
  assert.match(
    text,
    /^\| 3 \| `update\/system` \| 1000 \| 999 succeeded, 1 failed, 1 in doubt \(API_CONNECTION_RESET 1\) \|$/m,
  );

  // Each piece (a row, a failure, an update report, a note) is made once, and only for what is listed.
  const json = JSON.parse(readFileSync(report, 'utf8')) as Report;
  const work = { pieces: 0 };
  assert.equal(renderMarkdown(json, { fullReport: report, work }), text, 'the summary the run wrote');
  const listed = json.steps.filter((s) => s.outcome === 'failure' || s.inDoubt);
  const notes = listed.reduce(
    (n, s) =>
      n +
      ((s.result as { errors?: unknown[]; warnings?: unknown[] } | null)?.errors?.length ?? 0) +
      ((s.result as { warnings?: unknown[] } | null)?.warnings?.length ?? s.warnings.length),
    0,
  );
  const updates = listed.filter((s) => updateReportOf(s)).length;
  assert.equal(listed.length, 21);
  assert.equal(
    work.pieces,
    2 * listed.length + updates + notes,
    `${work.pieces} pieces made for ${json.steps.length} instances: a row and an entry for each listed`,
  );
  assert.ok(Buffer.byteLength(renderMarkdown(json, { limit: SUMMARY_LIMIT })) <= 16 * 1024);
});

test('a fleet where nothing failed: its summary says so once, with no empty table of what failed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fleet-summary-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'fleet.yml'), fleetPipeline(SITES.slice(0, 50)));
  const summary = join(dir, 'fleet.md');
  const r = await runCli(['run', join(dir, 'fleet.yml'), '--emulator', '--summary', summary]);
  assert.equal(r.code, 0, r.stdout.slice(-3000) + r.stderr);
  const text = readFileSync(summary, 'utf8');
  assert.match(
    text,
    /^\*\*A fleet of 50 site\(s\)\.\*\* None failed or is in doubt; the 150 are counted by step below/m,
  );
  assert.doesNotMatch(text, /Failed or in doubt/, 'no heading of what failed');
  assert.doesNotMatch(text, /\| \| Step \| Target \| Duration \| Key figures \|/, 'no empty table');
  assert.match(text, /^\| 3 \| `update\/system` \| 50 \| 50 succeeded \|$/m, 'the counts by step');
});
