// `enginectl report` whose report cannot be written once it is rendered (a full device: a path is
// checked before, so a directory in its place is refused with BAD_REPORT_PATH, exit 2): the other
// reports are written, the one not written is named as REPORT_NOT_WRITTEN, and the exit is 1
// although every step succeeded; nothing claims a file that was not written. From a journal, from
// a merge of JSON reports, and the job summary on a GitHub runner.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
name: Small disk
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
`;

test('report: a report that cannot be written (a full device) is REPORT_NOT_WRITTEN, exit 1; the others are written, and only they are named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-report-not-written-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE);
  const journal = join(dir, 'j.jsonl');
  const json = join(dir, 'r.json');
  const ran = await runCli(['run', join(dir, 'p.yml'), '--emulator', '--journal', journal, '--report-json', json]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);

  const cases: Record<string, string[]> = {
    'from the journal': ['report', journal],
    'a merge of JSON reports': ['report', '--merge', json],
  };
  for (const [what, args] of Object.entries(cases)) {
    // Written whole, every report: exit 0.
    const whole = join(dir, `${what}.whole.html`);
    const written = await runCli([...args, '--html', whole]);
    assert.equal(written.code, 0, `${what}: ${written.stdout}${written.stderr}`);
    // The JUnit file on a full device: named, exit 1; the HTML report written and named alone.
    const html = join(dir, `${what}.html`);
    const r = await runCli([...args, '--junit', '/dev/full', '--html', html]);
    assert.equal(r.code, 1, `${what}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /^enginectl: REPORT_NOT_WRITTEN: --junit \/dev\/full: ENOSPC$/m, `${what}: ${r.stderr}`);
    assert.match(readFileSync(html, 'utf8'), /<\/html>\s*$/, `${what}: the HTML report is written whole`);
    const named = [...r.stdout.matchAll(/^report: (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(named, [html], `${what}: only the report written is named`);
  }
});

test('report on a GitHub runner whose job summary cannot be written (GITHUB_STEP_SUMMARY=/dev/full): REPORT_NOT_WRITTEN, exit 1, the report files written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-report-not-written-'));
  writeFileSync(join(dir, 'p.yml'), PIPELINE);
  const journal = join(dir, 'j.jsonl');
  const ran = await runCli(['run', join(dir, 'p.yml'), '--emulator', '--journal', journal]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const html = join(dir, 'r.html');
  const r = await runCli(['report', journal, '--html', html], {
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/dev/full' },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /^enginectl: REPORT_NOT_WRITTEN: job summary: ENOSPC$/m, r.stderr);
  assert.ok(existsSync(html), 'the HTML report is written');
});
