// A fleet's Markdown summary past GitHub's 1 MiB: a 1,000-site release (a gate, a vfs update and a
// system update per site) whose summary is fitted in one pass, each piece made once: the failing
// and in-doubt instances first, then each step's counts, and a note of what was left out and where
// the whole report is. Before, the summary was fitted by rendering it again for each update report
// it cut (40 s for 1,000 sites, 354 s for 2,000, the run itself 4 s), and cut at the limit at last,
// so the failures listed after the step table could be lost.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { renderMarkdown, SUMMARY_LIMIT } from '../../src/report/markdown.ts';
import { updateReportOf, type Report } from '../../src/report/model.ts';

const SITES = Array.from({ length: 1000 }, (_, i) => `site-${String(i + 1).padStart(4, '0')}`);

function fleetPipeline(): string {
  const step = (text: string) =>
    `${text}\n    matrix: { site: "\${{ vars.sites }}" }\n    max-parallel: 50\n    server: \${{ matrix.site }}`;
  return `version: 1
name: 1,000 sites
vars:
  sites: [${SITES.join(', ')}]
servers:
${SITES.map((s) => `  ${s}: { url: "https://${s}.example.com", username: admin, password: admin }`).join('\n')}
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

test("a 1,000-site release's summary fits 1 MiB in one pass: every failure and in-doubt instance kept, each step counted, what was left out said", async (t) => {
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
  assert.ok(summary.length <= SUMMARY_LIMIT, `the summary is ${summary.length} bytes`);
  const text = summary.toString('utf8');
  for (const site of failing)
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
    /^- \*\*System update prod \(site=site-0777\)\*\* \(`update\/system`\): .*the connection was closed/m,
    'the in-doubt instance is kept',
  );
  assert.match(text, /^\| ❌ \| System update prod \(site=site-0777\) \(in doubt\) \|/m, 'and its row');
  const where = report.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  assert.match(
    text,
    new RegExp(
      `^> \\*\\*The summary was cut at \\d+ KiB\\.\\*\\* The full report is in ${where}\\. Left out: [\\d,]+ of 1,979 update reports\\. Every failed, cancelled and in-doubt step is listed below\\.$`,
      'm',
    ),
  );
  assert.match(text, /^\| 2 \(vfs\) \| `update\/vfs` \| 1000 \| 980 succeeded, 20 failed \|$/m, "each step's counts");
  assert.match(text, /^\| 3 \| `update\/system` \| 1000 \| 999 succeeded, 1 failed, 1 in doubt \|$/m);

  // Each piece (a row, a failure, an update report, a note) is made once, whatever is left out.
  const json = JSON.parse(readFileSync(report, 'utf8')) as Report;
  const work = { pieces: 0 };
  assert.equal(renderMarkdown(json, { fullReport: report, work }), text, 'the summary the run wrote');
  const notes = json.steps.reduce(
    (n, s) =>
      n +
      ((s.result as { errors?: unknown[]; warnings?: unknown[] } | null)?.errors?.length ?? 0) +
      ((s.result as { warnings?: unknown[] } | null)?.warnings?.length ?? s.warnings.length),
    0,
  );
  const failures = json.steps.filter((s) => s.outcome === 'failure' || s.inDoubt).length;
  const updates = json.steps.filter((s) => updateReportOf(s)).length;
  assert.equal(
    work.pieces,
    json.steps.length + failures + updates + notes,
    `${work.pieces} pieces made for ${json.steps.length} instances: each once`,
  );
});
