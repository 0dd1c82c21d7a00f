// A file's path in a code span (the drift audit's Markdown, the run summary's head line) reads as it
// is once rendered: CommonMark undoes no backslash escape inside a code span, so a table cell's
// escaping (text/escape.ts cell) would show a Windows path's backslash twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { marked } from 'marked';
import { driftMarkdown } from '../../src/report/drift-table.ts';
import type { DriftAudit } from '../../src/report/drift-audit.ts';
import { buildReport, renderMarkdown } from '../../src/report/index.ts';
import { fleetRun } from '../helpers/fleet-report.ts';

const html = (markdown: string) => marked.parse(markdown, { gfm: true, async: false });

test("the drift audit's Markdown shows a Windows path's backslash once", () => {
  const audit: DriftAudit = {
    kind: 'enginectl-drift-audit',
    version: 1,
    name: 'Prod',
    file: 'pipelines\\prod.yml',
    at: '2026-12-04T12:00:00.000Z',
    drifted: [],
    unreachable: [],
    sites: [],
  };
  assert.match(html(driftMarkdown(audit)), /<code>pipelines\\prod\.yml<\/code>/);
});

test("the run summary's head line shows a Windows path's backslash once", () => {
  const report = buildReport(fleetRun(3));
  report.pipeline.file = 'pipelines\\prod.yml';
  assert.match(html(renderMarkdown(report)), /<code>pipelines\\prod\.yml<\/code>/);
});
