// A server's update report is Markdown the summary keeps (headings, lists, code), inside a
// <details> of its own. Rendered as CommonMark renders it (marked, GFM; GitHub renders with
// cmark-gfm), it stays inside that section whatever it holds: a fence whose closing line is not a
// closing fence (``` end of log), a fence inside a list item, a link definition whose label spans
// lines or sits in a quote or a list, a setext heading. Through the CLI's run (--summary) and the
// root action's PR comment.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Marked } from 'marked';
import { actionDef } from '../../src/action/definitions.ts';
import { startGitHubApi } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const html = (markdown: string) => new Marked({ gfm: true, async: false }).parse(markdown) as string;

/** Server reports that leave their section, or show a heading above the summary's, or link script. */
const REPORTS: Record<string, string> = {
  'a closing fence with text after it (CommonMark keeps the block open)':
    '# VFS update\n\nAll files installed.\n\n```\nlog line\n``` end of log\n',
  'a fence inside a list item, its item ended by a line that is not indented':
    '# VFS update\n\n- step one\n  ```\n  code of the item\nthe item ended here\n',
  'a fence of tildes closed by backticks': '~~~\nlog\n```\n',
  'a link definition whose label spans two lines':
    '# VFS update\n\n[q\nw]: javascript:alert(document.domain)\n\n[click here][q w]\n',
  'a link definition in a quote': '> [x]: javascript:alert(2)\n\n[quoted][x]\n',
  'a link definition in a list item': '- [z]: javascript:alert(3)\n\n[listed][z]\n',
  'a link definition whose destination is on the next line': '[a]:\njavascript:alert(4)\n\n[next line][a]\n',
  'a setext heading of either level': 'Release: SUCCESS\n===\n\nAll done\n---\n',
};

/** The rendered summary: every server report stays in its <details>, the sections after them are ours. */
function assertContained(what: string, markdown: string) {
  const page = html(markdown);
  assert.doesNotMatch(page, /&lt;\/details&gt;/, `${what}: our </details> shown as text: swallowed`);
  assert.equal(
    (page.match(/<details>/g) ?? []).length,
    (page.match(/<\/details>/g) ?? []).length,
    `${what}: every <details> closed`,
  );
  assert.match(page, /<h3>Errors and warnings reported by the server<\/h3>/, `${what}: the next section is a heading`);
  assert.match(page, /<li>⚠️ <strong>[^<]*<\/strong>: IMPORTANT: 2 Engines were not restarted<\/li>/, `${what}`);
  assert.doesNotMatch(page, /href="javascript:/i, `${what}: a live link to script`);
  assert.doesNotMatch(
    page,
    /<h[123]>(?!✅|❌|⚠️|Update reports|Errors and warnings|Steps|Failed)/,
    `${what}: a server heading at the summary's level`,
  );
}

const PIPELINE = (url: string) => `version: 1
name: Fence
servers:
  main: { url: "${url}", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
  - { id: sys, name: System update, uses: update/system, with: { target: prod } }
`;

/** The emulator answers the next vfs update with `report` and a warning after it. */
async function reporting(t: TestContext, report: string) {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    times: 1,
    contentType: 'application/json',
    body: JSON.stringify({
      success: true,
      report,
      warnings: [{ code: 'W1', message: 'IMPORTANT: 2 Engines were not restarted' }],
    }),
  });
  return url;
}

for (const [what, report] of Object.entries(REPORTS)) {
  test(`the summary holds a server report in its section: ${what}`, async (t) => {
    const url = await reporting(t, report);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-summary-md-'));
    writeFileSync(join(dir, 'p.yml'), PIPELINE(url));
    const r = await runCli(['run', join(dir, 'p.yml'), '--summary', join(dir, 's.md')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const markdown = readFileSync(join(dir, 's.md'), 'utf8');
    assert.match(markdown, /### Update reports/);
    assertContained(what, markdown);
  });
}

test('the PR comment holds a server report in its section as the summary does', async (t) => {
  for (const [what, report] of Object.entries(REPORTS)) {
    const url = await reporting(t, report);
    const github = await startGitHubApi(t);
    const run = await runActionInProcess(actionDef('enginectl'), {
      files: { 'p.yml': PIPELINE(url) },
      inputs: { pipeline: 'p.yml', 'pr-comment': 'true' },
      event: { pull_request: { number: 7 } },
      githubApi: github.url,
    });
    assert.equal(run.code, 0, run.failed.join('\n'));
    assert.equal(github.comments.length, 1);
    assertContained(`PR comment, ${what}`, github.comments[0]!.body);
  }
});

test('a report nested deeper than the parser can read is shown as text, in its section', async (t) => {
  const url = await reporting(t, `${'> '.repeat(6000)}deep\n\`\`\`\nopen`);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-summary-md-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE(url));
  const r = await runCli(['run', join(dir, 'p.yml'), '--summary', join(dir, 's.md')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const markdown = readFileSync(join(dir, 's.md'), 'utf8');
  assert.match(markdown, /^`{4}\n(> ){6000}deep\n```\nopen\n`{4}$/m, 'the report as a code block');
  assertContained('deep', markdown);
});

test('the HTML report of a run whose server report is nested deeper than the parser reads is written, that report as text, and the run succeeds', async (t) => {
  const url = await reporting(t, `${'> '.repeat(6000)}deep`);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-summary-md-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE(url));
  const r = await runCli(['run', join(dir, 'p.yml'), '--html', join(dir, 'r.html')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const page = readFileSync(join(dir, 'r.html'), 'utf8');
  assert.match(page, /<pre class="plain">(&gt; ){6000}deep<\/pre>/, 'the report as text');
});
