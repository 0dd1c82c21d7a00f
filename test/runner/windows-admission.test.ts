// Admission per write, each write and only writes (docs/pipeline-format.md, Windows and freezes),
// end to end on the emulator's simulated clock (run --emulator --clock): each retry attempt of a
// write is admitted as a first one; a write in doubt the window refuses stays in doubt with the
// operator's decision in every report, until a run inside the window sends it; a GET api/request
// is a read (steps/registry.ts isReadOnly), never held back; the schedule's mistakes are said
// where they are.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const WINDOW = `version: 1
windows:
  w: { cron: '0 7 * * *', duration: 1h, zone: UTC }
`;

interface Step {
  name: string;
  outcome: string;
  attempts?: number;
  error: { code: string; message: string } | null;
  window: { verdict: string; next?: string | null } | null;
  inDoubt: { method: string; path: string } | null;
  decision: { decision: string; by: string } | null;
}
interface Report {
  counts: { inDoubt: number; failure: number };
  steps: Step[];
}

function workspace(pipeline: string) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-admission-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, pipeline);
  const path = (name: string) => join(dir, name);
  const read = (name: string) => readFileSync(path(name), 'utf8');
  const report = (name: string) => JSON.parse(read(name)) as Report;
  return { dir, file, path, read, report };
}

const sends = (journal: string) => journal.split('\n').filter((l) => l.includes('"t":"send"')).length;

test('each retry attempt of a write is admitted into its window as a first one: one that would overrun is not sent, the earlier attempts kept', async () => {
  const w = workspace(`${WINDOW}steps:
  - name: clear
    uses: transaction-log/clear
    expected: 30m
    retry: { attempts: 3, delay: 20m, backoff: 1 }
`);
  // Attempt 1 at 07:20 needs 33m: fits (08:00). Attempt 2 at 07:40 would end 08:13: not started.
  const r = await runCli(
    [
      'run',
      w.file,
      '--emulator',
      '--clock',
      '2026-12-05T07:20:00Z',
      '--fault',
      'POST /api/devops/v1/transaction-log/clear status=409 times=2',
      '--report-json',
      w.path('r.json'),
      '--journal',
      w.path('j.jsonl'),
    ],
    {},
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(sends(w.read('j.jsonl')), 1, 'only the first attempt was sent');
  const clear = w.report('r.json').steps[0]!;
  assert.equal(clear.outcome, 'failure');
  assert.equal(clear.error?.code, 'WINDOW_CLOSED');
  assert.match(
    clear.error!.message,
    /attempt 2 of 3 not started: .*would overrun its window \(ending 2026-12-05T08:00:00.000Z\) by 13m/,
  );
  assert.match(clear.error!.message, /attempt 1 failed: .*HTTP 409/, "the earlier attempt's failure is kept");
  assert.equal(clear.attempts, 1);
  assert.equal(clear.window?.verdict, 'overrun');
  assert.equal(clear.window?.next, '2026-12-06T07:00:00.000Z');
});

test('a write in doubt whose resume --in-doubt retry the window refuses stays in doubt with the decision in every report; a resume inside the window carries the decision and sends it', async () => {
  const w = workspace(`${WINDOW}name: window resume
steps:
  - name: clear
    uses: transaction-log/clear
    expected: 30m
`);
  const run = (clock: string, extra: string[]) =>
    runCli(['run', w.file, '--emulator', '--clock', clock, '--journal', w.path('j.jsonl'), ...extra], {
      env: { USER: 'alice' },
    });
  const first = await run('2026-12-05T07:20:00Z', [
    '--fault',
    'POST /api/devops/v1/transaction-log/clear reset=after times=1',
  ]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  // Outside the window: the retry is not sent.
  const refused = await run('2026-12-05T09:00:00Z', [
    '--resume',
    w.path('j.jsonl'),
    '--in-doubt',
    'retry',
    '--report-json',
    w.path('refused.json'),
    '--summary',
    w.path('refused.md'),
  ]);
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.equal(sends(w.read('j.jsonl')), 1, 'nothing sent outside the window');
  const rep = await runCli(['report', w.path('j.jsonl'), '--report-json', w.path('after.json')]);
  assert.equal(rep.code, 1, rep.stdout + rep.stderr);
  for (const name of ['refused.json', 'after.json']) {
    const report = w.report(name);
    const clear = report.steps[0]!;
    assert.equal(report.counts.inDoubt, 1, `${name}: the doubt is kept`);
    assert.equal(clear.inDoubt?.path, '/api/devops/v1/transaction-log/clear', name);
    assert.equal(clear.decision?.decision, 'retry', `${name}: the decision is shown`);
    assert.equal(clear.error?.code, 'WINDOW_CLOSED', name);
  }
  const summary = w.read('refused.md');
  assert.match(summary, /in doubt/);
  assert.doesNotMatch(summary, /in doubt: sent again/, 'it was not sent again');
  assert.match(summary, /to be sent again by the operator's decision \(alice[^)]*\), not sent yet/);
  // Inside the next window: the recorded decision is carried, shown, and the write goes out once.
  const later = await run('2026-12-06T07:05:00Z', [
    '--resume',
    w.path('j.jsonl'),
    '--report-json',
    w.path('later.json'),
  ]);
  assert.equal(later.code, 0, later.stdout + later.stderr);
  assert.equal(sends(w.read('j.jsonl')), 2);
  const clear = w.report('later.json').steps[0]!;
  assert.equal(clear.outcome, 'success');
  assert.equal(clear.decision?.decision, 'retry', "the operator's recorded decision is what sent it");
});

test('a GET api/request is a read: never held back by a window, given no write duration', async () => {
  const w = workspace(`version: 1
windows:
  w: { cron: '0 7 * * *', duration: 4h, zone: UTC }
steps:
  - name: classes get
    uses: classes/get
    with: { id: 2001 }
  - name: read engines
    uses: api/request
    with: { method: GET, path: /api/monitoring/v1/engines }
  - name: read again
    uses: api/request
    with: { path: /api/monitoring/v1/engines }
  - name: write
    uses: api/request
    with: { method: POST, path: /api/devops/v1/transaction-log/clear }
`);
  const r = await runCli([
    'run',
    w.file,
    '--emulator',
    '--clock',
    '2026-12-05T12:00:00Z',
    '--report-json',
    w.path('r.json'),
  ]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const steps = w.report('r.json').steps;
  for (const name of ['classes get', 'read engines', 'read again']) {
    const s = steps.find((x) => x.name === name)!;
    assert.equal(s.outcome, 'success', `${name}: ${s.error?.message}`);
    assert.equal(s.window, null, `${name}: a read has no verdict`);
  }
  const write = steps.find((x) => x.name === 'write')!;
  assert.equal(write.error?.code, 'WINDOW_CLOSED', 'a POST is a write: held back');
});

test('validate says where a window-margin out of range is and the range it may take', async () => {
  const w = workspace(`version: 1
window-margin: 150%
windows:
  w: { cron: '0 2 * * *', duration: 1h, zone: UTC }
steps:
  - name: clear
    uses: transaction-log/clear
`);
  const r = await runCli(['validate', w.file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /p\.yml:2:16 window-margin: .*from 0% to 100%/);
  assert.doesNotMatch(r.stdout + r.stderr, /at .*\.ts:\d+/, 'no stack trace');
});

test('validate refuses a window whose cron never fires, saying where', async () => {
  const w = workspace(`version: 1
windows:
  w:
    cron: '0 2 31 2 *'
    duration: 1h
    zone: UTC
steps:
  - name: clear
    uses: transaction-log/clear
`);
  const r = await runCli(['validate', w.file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /p\.yml:4:11 .*"0 2 31 2 \*" .*never opens/);
  assert.doesNotMatch(r.stdout + r.stderr, /at .*\.ts:\d+/, 'no stack trace');
});
