// The renderings as a reviewer meets them: the HTML report in a real browser (headless
// Chromium, no JavaScript, no network), hostile server text kept inert, and the job summary
// under GitHub's 1 MiB limit however large the server's reports are.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildReport, renderHtml, renderJson, renderMarkdown, SUMMARY_LIMIT } from '../../src/report/index.ts';
import { browse } from '../helpers/chromium.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

const HOSTILE =
  '</details><script>alert(1)</script><img src=x onerror=alert(2)> [x](javascript:alert(3)) ::error::pwned';

const RELEASE = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: deploy-pass }
name: Release 26.11
steps:
  - name: Engines online
    uses: monitoring/engines
    with: { min-online: 1 }
  - name: System update
    uses: update/system
    matrix: { target: [staging, prod] }
    with: { target: "\${{ matrix.target }}", tracking-id: REL-1, message: "${HOSTILE.replace(/"/g, '\\"')}" }
  - name: Sync
    uses: replication/sync
  - name: Clear on failure
    if: failure()
    uses: transaction-log/clear
`;

test('the HTML report renders in headless Chromium without JavaScript: timeline, table, update reports', async (t) => {
  const { result } = await runYaml(t, RELEASE, { setup: (e) => e.failReplication('REPLICA-2', 'disk full') });
  const html = renderHtml(buildReport(result));
  assert.doesNotMatch(html, /<script/i, 'no script at all');
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  assert.doesNotMatch(html, /\b(src|href)="(https?:)?\/\//, 'nothing is loaded from the network');

  const { dom } = browse(html, 'dump-dom');
  for (const text of [
    'Release 26.11: failure',
    'Timeline',
    'System update (target=staging)',
    'System update (target=prod)',
    'Schema versions applied',
    'disk full',
    'Clear on failure',
  ]) {
    assert.ok(dom!.includes(text), `the page shows "${text}"`);
  }
  assert.equal(
    (dom!.match(/class="bar"/g) ?? []).length,
    5,
    'one timeline bar per step instance that ran (the failure() step ran)',
  );
  assert.ok(!/<script|<img[^>]+onerror|href="javascript:/i.test(dom!), 'the server text stayed text');
  assert.ok(dom!.includes('&lt;/details&gt;&lt;script&gt;'), 'the hostile message is shown escaped');

  const { png, dir } = browse(html, 'screenshot');
  assert.deepEqual([...png!.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  assert.equal(png!.readUInt32BE(16), 1280, 'as wide as the window');
  assert.ok(png!.length > 20_000, `a page with content, not a blank one (${png!.length} bytes)`);
  t.diagnostic(`screenshot: ${join(dir, 'report.png')}`);
});

test('hostile server text cannot leave its <details> in the Markdown summary', async (t) => {
  const { result } = await runYaml(t, RELEASE);
  const md = renderMarkdown(buildReport(result));
  assert.equal((md.match(/<details>/g) ?? []).length, 2);
  assert.equal((md.match(/<\/details>/g) ?? []).length, 2, 'no extra </details> from the server');
  assert.doesNotMatch(md, /<script|<img/);
  assert.match(md, /&lt;\/details>&lt;script>/);
});

test('a code fence a server report leaves open is closed in its own section: the next report and the errors stay outside it', async (t) => {
  const yaml = `${oneStep('update/vfs', '{ target: prod, files: [1001], message: "${{ env.MSG }}" }')}
  - name: second
    uses: update/system
    with: { target: wrong }
    continue-on-error: true
`;
  const { result } = await runYaml(t, yaml, { env: { MSG: 'see below\n```\nnothing after this line is code' } });
  const md = renderMarkdown(buildReport(result));
  const { Marked } = await import('marked');
  const html = new Marked({ gfm: true, async: false }).parse(md) as string;
  assert.match(html, /<summary>❌ second: failed<\/summary>/, "the second report's section is HTML, not code");
  assert.match(
    html,
    /<h3>Errors and warnings reported by the server<\/h3>|<h3>Failed/,
    'the sections after it are headings, not code',
  );
  assert.equal((html.match(/<pre>/g) ?? []).length, (html.match(/<\/pre>/g) ?? []).length);
});

test('server text in the summary and the PR comment mentions no one and links no issue: @org/team, @user, #7 and owner/repo#12 are made inert', async (t) => {
  const yaml = oneStep('update/vfs', '{ target: prod, files: [1001], message: "${{ env.MSG }}" }');
  const { result } = await runYaml(t, yaml, {
    env: { MSG: 'ping @acme/dba-team and @jdoe, see #7 and acme/erp#12; mail ops@example.com' },
  });
  const md = renderMarkdown(buildReport(result));
  assert.doesNotMatch(md, /(^|[^\w\u200B])@(acme|jdoe)/, 'no live mention');
  assert.doesNotMatch(md, /#(7|12)\b/, 'no live issue reference');
  assert.match(md, /@\u200Bacme\/dba-team and @\u200Bjdoe, see #\u200B7 and acme\/erp#\u200B12/, 'the text is shown');
  assert.match(md, /ops@example\.com/, 'an e-mail address is left as it is');
});

test('the job summary stays under 1 MiB when the update reports are huge; the JSON report keeps them whole', async (t) => {
  const big = 'x'.repeat(700 * 1024);
  const yaml = `${oneStep('update/vfs', '{ target: prod, files: [1001], message: "${{ env.BIG }}" }')}
  - name: second
    uses: update/system
    with: { target: staging, message: "\${{ env.BIG }}" }
`;
  const { result } = await runYaml(t, yaml, { env: { BIG: big } });
  assert.equal(result.outcome, 'success');
  const report = buildReport(result);
  const md = renderMarkdown(report, { fullReport: 'out/report.json and out/report.html' });
  assert.ok(Buffer.byteLength(md) < SUMMARY_LIMIT, `summary is ${Buffer.byteLength(md)} bytes`);
  assert.match(md, /was cut to keep the summary under 1 MiB; it is in out\/report\.json and out\/report\.html/);
  assert.match(md, /\| ✅ \| the step \|/, 'the step table is whole');
  assert.ok(renderJson(report).includes(big), 'the JSON report holds the full server report');
});

test('a summary of 3,000 step runs is cut at the limit with a pointer, never over it', () => {
  const steps = Array.from({ length: 3000 }, (_, i) => ({
    key: String(i),
    step: i,
    id: undefined,
    name: `step ${i} ${'y'.repeat(300)}`,
    uses: 'assert',
    matrix: undefined,
    server: undefined,
    outcome: 'failure' as const,
    continuedOnError: true,
    startedAt: 0,
    durationMs: 1,
    attempts: 1,
    inputs: {},
    outputs: {},
    figures: undefined,
    error: { code: 'STEP_FAILED' as const, message: 'z'.repeat(200), hint: undefined },
    warnings: [],
    result: null,
  }));
  const md = renderMarkdown(
    buildReport({ file: 'p.yml', name: 'many', outcome: 'failure', startedAt: 0, durationMs: 1, steps }),
    { fullReport: 'report.json' },
  );
  assert.ok(Buffer.byteLength(md) <= SUMMARY_LIMIT);
  assert.match(md, /The summary was cut at \d+ KiB\.\*\* The full report is in report\.json\./);
});

test('a backslash before a pipe in server text or a step name does not end its summary table cell (GFM)', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.state.engines[0]!.version = '9.9\\| <b>B</b> | FORGED CELL | x';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-cells-'));
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1
steps:
  - name: 'slash \\| forged-by-name'
    uses: monitoring/engines
    continue-on-error: true
    with: { min-online: 99, version: "26.11.0" }
`,
  );
  const r = await runCli(['run', join(dir, 'p.yml'), '--summary', join(dir, 's.md')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const md = readFileSync(join(dir, 's.md'), 'utf8');
  const { Marked } = await import('marked');
  const html = new Marked({ gfm: true, async: false }).parse(md) as string;
  const rows = html.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
  const cells = (row: string) => [...row.matchAll(/<t[hd]>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1]);
  assert.deepEqual(cells(rows[0]!), ['', 'Step', 'Target', 'Duration', 'Key figures']);
  // A cell ended early pushes the rest right, and GFM drops the cells past the header's.
  const [, name, , , figures] = cells(rows.find((row) => row.includes('forged-by-name'))!);
  assert.equal(name, 'slash \\| forged-by-name (continue-on-error)', 'the name is shown as written, in its cell');
  assert.match(
    figures!,
    /9\.9\\\| &lt;b&gt;B&lt;\/b&gt; \| FORGED CELL \| x/,
    'the version is shown as written, in its cell',
  );
});
