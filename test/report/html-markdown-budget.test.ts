// The HTML report renders a server's Markdown report only as far as marked's inline pass stays
// bounded: on hostile text (`_*a` repeated) its time grows with the square of a paragraph's
// length (hours for 1 MiB), so each report is charged the squares of its paragraphs', headings'
// and table cells' lengths against one budget for the page, and a report past it is shown as
// plain text with a note saying why. Through the CLI's run (--html) against the emulator, each
// update answering with a report of the test's choosing.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const KIB = 1024;
/** A paragraph marked's inline pass takes time on growing with the square of its length. */
const hostile = (length: number) => '_*a'.repeat(Math.ceil(length / 3));

/** The HTML report of a run of a vfs then a system update, answered with these reports. */
async function htmlOf(t: TestContext, vfs: string, system: string): Promise<string> {
  const { url, emulator } = await startEmulator(t);
  for (const [path, report] of [
    ['/api/devops/v1/update/vfs', vfs],
    ['/api/devops/v1/update/system', system],
  ] as const)
    emulator.faults.add({
      method: 'POST',
      path,
      status: 200,
      times: 1,
      contentType: 'application/json',
      body: JSON.stringify({ success: true, report, warnings: [] }),
    });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-html-budget-'));
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1
name: Budget
servers:
  main: { url: "${url}", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
  - { id: sys, name: System update, uses: update/system, with: { target: prod } }
`,
  );
  const r = await runCli(['run', join(dir, 'p.yml'), '--html', join(dir, 'r.html')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return readFileSync(join(dir, 'r.html'), 'utf8');
}

/** `pattern` is (or is not) found in `text`; a failure quotes the start of the text only (it is long). */
function has(text: string, pattern: RegExp, what: string, found = true) {
  assert.equal(pattern.test(text), found, `${what}: ${found ? 'not ' : ''}found ${pattern} in ${text.slice(0, 300)}…`);
}

/** The section of the update report of the step named `name`. */
function section(page: string, name: string): string {
  const at = page.indexOf(`<summary>${name}: succeeded</summary>`);
  assert.ok(at >= 0, `the report of ${name} has a section`);
  return page.slice(at, page.indexOf('</details>', at));
}

test('a server report with a paragraph too long for Markdown on hostile text is shown in the HTML report as plain text, whole, with a note', async (t) => {
  const paragraph = hostile(17 * KIB);
  const page = await htmlOf(t, `# VFS update\n\n${paragraph}\n`, 'All done.');
  const vfs = section(page, 'VFS to prod');
  has(
    vfs,
    /<p class="note">This report is shown as plain text: its paragraphs are too long to render as Markdown in a bounded time/,
    'the note',
  );
  assert.ok(vfs.includes(`<pre class="plain"># VFS update\n\n${paragraph}\n</pre>`), 'the report as text, whole');
  has(vfs, /<em>|<strong>/, 'emphasis rendered', false);
  has(section(page, 'System update'), /<p>All done\.<\/p>/, 'the next report rendered');
});

test('a server report as hostile in short paragraphs, and a long one in short table cells, are rendered as Markdown', async (t) => {
  const paragraphs = Array.from({ length: 8 }, () => hostile(2 * KIB)).join('\n\n');
  const rows = Array.from({ length: 2000 }, (_, i) => `| file-${i}.vfs | **installed** |`).join('\n');
  const page = await htmlOf(t, `# VFS update\n\n${paragraphs}\n`, `| File | Status |\n|---|---|\n${rows}\n`);
  const vfs = section(page, 'VFS to prod');
  has(vfs, /class="plain"|class="note"/, 'plain text', false);
  has(vfs, /<h1>VFS update<\/h1>/, 'the heading rendered');
  has(vfs, /<em>/, "marked's emphasis");
  const system = section(page, 'System update');
  has(system, /class="plain"|class="note"/, 'plain text', false);
  assert.equal((system.match(/<td><strong>installed<\/strong><\/td>/g) ?? []).length, 2000, 'every row rendered');
});

test('reports past what is left of the page budget are shown as plain text; the one before them is rendered', async (t) => {
  const page = await htmlOf(t, `# VFS update\n\n${hostile(12 * KIB)}\n`, `# System update\n\n${hostile(12 * KIB)}\n`);
  const vfs = section(page, 'VFS to prod');
  has(vfs, /class="plain"|class="note"/, 'the first report as plain text', false);
  has(vfs, /<h1>VFS update<\/h1>/, 'the first report rendered');
  const system = section(page, 'System update');
  has(
    system,
    /<p class="note">This report is shown as plain text: the reports above it used what this page renders as Markdown/,
    'the note',
  );
  has(system, /<pre class="plain"># System update\n\n(_\*a)+\n<\/pre>/, 'the second report as text');
});
