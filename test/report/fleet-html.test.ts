// Every report of a 10,000-site rollout (test/helpers/fleet-report.ts: the runner's result, the
// model built by the code): the HTML opens with a grid, checked in headless Chromium (the grid
// parsed, a failure's cell linking to its row, a screenshot whose first viewport shows the grid);
// the summary lists what failed and counts the rest in a few KiB; JSON and JUnit keep every
// instance. A report of fewer sites keeps its shape (the golden files pin it). How fast each
// renders and how fast Chromium opens the page is measured in bench/reports.mjs, not asserted.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildReport, renderHtml, renderJson, renderJunit, renderMarkdown } from '../../src/report/index.ts';
import { FLEET_SITES } from '../../src/report/fleet.ts';
import type { RunResult } from '../../src/runner/result.ts';
import { browse } from '../helpers/chromium.ts';
import { fleetRun, siteName } from '../helpers/fleet-report.ts';
import { readPng } from '../helpers/png.ts';

const SITES = 10_000;
const report = buildReport(fleetRun(SITES));
const html = renderHtml(report);

test('a 10,000-site rollout: the HTML opens with a grid in Chromium, failures first, each cell a link to its row, the grid in the first viewport', (t) => {
  const bytes = Buffer.byteLength(html);
  t.diagnostic(`the HTML of ${SITES.toLocaleString('en')} sites: ${bytes} bytes`);
  assert.ok(bytes < 400 * report.steps.length, `${bytes} bytes: a few hundred per instance`);
  assert.doesNotMatch(html, /<script/i, 'no script at all');
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);

  const { dom } = browse(html, 'dump-dom');
  assert.ok(dom!.includes('</html>'), 'Chromium parsed the page whole');
  assert.equal((dom!.match(/<a href="#i\d+"/g) ?? []).length, report.steps.length, 'a cell per site and step');
  assert.equal(
    (dom!.match(/<div id="i\d+" class="r">/g) ?? []).length,
    report.steps.length,
    'an anchored line per instance',
  );
  assert.equal((dom!.match(/<div class="grid"/g) ?? []).length, 4, 'the failed and in-doubt sites, then 3 waves');
  const headings = [...dom!.matchAll(/<h3>([^<]*)<\/h3>/g)].map((m) => m[1]);
  assert.deepEqual(headings, [
    'Failed or in doubt: 21 site(s)',
    'Wave 1: done · 1 site(s)',
    'Wave 2: failed within budget · 1,000 site(s), 2 failed or in doubt (above)',
    'Wave 3: failed within budget · 8,999 site(s), 19 failed or in doubt (above)',
  ]);
  assert.ok(dom!.indexOf('site: 10,000 at a glance') < dom!.indexOf('<h2>Waves</h2>'), 'the grid comes first');
  assert.match(
    dom!,
    /failure 21 \(1 in doubt\)<\/span>.*skipped 20<\/span><span>.*success 29,959<\/span>/,
    'a legend, counted',
  );

  // A failure's cell links to its row: the row of that site's vfs update, failed.
  const cell = /<a href="#(i\d+)" class="f" title="site-00500 · 2 update\/vfs · failure"><\/a>/.exec(dom!);
  assert.ok(cell, "site-00500's failed vfs update has its cell");
  assert.match(
    dom!,
    new RegExp(
      `<div id="${cell[1]}" class="r"><span class="badge f">failure</span>VFS update prod \\(site=site-00500\\)`,
    ),
  );
  const doubt = /<a href="#(i\d+)" class="f" title="site-07771 · 3 update\/system · failure, in doubt"><\/a>/.exec(
    dom!,
  );
  assert.ok(doubt, 'the in-doubt failure says so');
  assert.match(
    dom!,
    new RegExp(`<div id="${doubt[1]}" class="r">[^\\n]*\\(site=site-07771\\) <em>\\(in doubt\\)</em>`),
  );
  // The failed sites' tiles are named and come before every wave's.
  assert.ok(dom!.indexOf('<b>site-00500</b>') < dom!.indexOf('Wave 1: done'));

  const { png, dir } = browse(html, 'screenshot');
  t.diagnostic(`screenshot: ${join(dir, 'report.png')}`);
  const image = readPng(png!);
  assert.deepEqual([image.width, image.height], [1280, 1600], 'the first viewport');
  const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 8);
  let green = 0;
  let red = 0;
  let grey = 0;
  // Below the header (red for a failed run): the grid's cells.
  for (let y = 160; y < image.height; y += 2)
    for (let x = 0; x < image.width; x += 2) {
      const px = image.at(x, y);
      if (near(px, [0x1a, 0x7f, 0x37])) green++;
      else if (near(px, [0xcf, 0x22, 0x2e])) red++;
      else if (near(px, [0x8c, 0x95, 0x9f])) grey++;
    }
  t.diagnostic(`sampled pixels below the header: ${green} green, ${red} red, ${grey} grey`);
  assert.ok(green > 50_000, `the successes' cells fill the first viewport (${green} sampled pixels)`);
  assert.ok(red > 100 && grey > 100, `the failed and skipped cells are in it (${red} red, ${grey} grey)`);
});

test('a 10,000-site summary lists the 21 failed or in-doubt instances and counts the rest, in a few KiB', (t) => {
  const md = renderMarkdown(report, { fullReport: 'fleet.json and fleet.html' });
  t.diagnostic(`the summary of ${SITES.toLocaleString('en')} sites: ${Buffer.byteLength(md)} bytes`);
  assert.ok(Buffer.byteLength(md) < 16 * 1024);
  assert.equal((md.match(/^\| ❌ \|/gm) ?? []).length, 21, 'a row per failed or in-doubt instance');
  assert.equal((md.match(/^- \*\*/gm) ?? []).length, 21, 'and its error with what to do');
  assert.match(md, /^\| 2 \| `update\/vfs` \| 10000 \| 9980 succeeded, 20 failed \(API_HTTP_STATUS 20\) \|$/m);
  assert.match(md, /^\| 3 \| `update\/system` \| 10000 \| 9979 succeeded, 1 failed, 20 skipped, 1 in doubt/m);
  assert.match(md, /^\| 3 \| site-01002, .* and 8991 more \| ⚠️ failed within budget \|/m, 'the waves');
});

test('a 10,000-site run: the JSON and JUnit reports keep every instance', () => {
  const json = JSON.parse(renderJson(report)) as { steps: unknown[] };
  assert.equal(json.steps.length, 3 * SITES);
  const junit = renderJunit(report);
  assert.equal((junit.match(/<testcase /g) ?? []).length, 3 * SITES);
  assert.match(junit, /<testcase name="[^"]*\(site=site-07771\)"/);
});

test(`a fleet is ${FLEET_SITES} sites or more: a smaller one's HTML and summary keep their shape`, () => {
  const small = buildReport(fleetRun(FLEET_SITES - 1));
  assert.doesNotMatch(renderHtml(small), /class="grid"|<div id="i/);
  assert.match(renderMarkdown(small), /^\| ✅ \| Alerts \(site=site-00001\) \|/m, 'every row');
  const fleet = buildReport(fleetRun(FLEET_SITES));
  assert.match(renderHtml(fleet), /class="grid"/);
  assert.doesNotMatch(renderMarkdown(fleet), /^\| ✅ \|/m, 'only what failed is listed');
});

test("the grid keeps a hostile site's name text: titles and labels escaped", () => {
  const hostile = '<img src=x onerror=alert(1)>"';
  const result: RunResult = fleetRun(60);
  const rename = (v: string) => v.replaceAll(siteName(0), hostile);
  result.steps = result.steps.map((s) => ({
    ...s,
    name: rename(s.name),
    matrix: { site: rename(String(s.matrix!.site)) },
    server: rename(s.server!),
  }));
  result.rollout!.waves[0]!.values = [hostile];
  const page = renderHtml(buildReport(result));
  assert.match(page, /class="grid"/);
  assert.doesNotMatch(page, /<img/);
  assert.ok(page.includes('title="&lt;img src=x onerror=alert(1)&gt;&quot; · 1 monitoring/alerts · success"'));
});
