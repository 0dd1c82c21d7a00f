// A journal whose first run left two writes in doubt (sites a and b), then resumed with --only
// site=a deciding a's: b's doubt stays, outside the last run's selection. Before, `report JOURNAL`
// judged the last run only: "success" and exit 0 while b's write stayed in doubt, undecided (a CI
// gate on it turned green); and verify's "then:" line resumed with --only site=a, which cannot
// decide b's doubt (it is not selected).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { parseFault, serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';

async function leftInDoubt(t: TestContext, parts = false, runs?: string[][]) {
  const sites = new Sites({
    faults: ['a', 'b'].map((s) => parseFault(`POST /api/devops/v1/update/vfs site=${s} gateway=504 times=1`)),
  });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-doubts-outside-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet
servers:
  a: { url: "${running.url}/sites/a", username: admin, password: admin }
  b: { url: "${running.url}/sites/b", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    name: "VFS \${{ matrix.site }}${parts ? ' ${{ matrix.part }}' : ''}"
    uses: update/vfs
    matrix: { site: [a, b]${parts ? ', part: [x, y]' : ''} }
    server: \${{ matrix.site }}
    continue-on-error: true
    with: { target: prod, files: [1001] }
`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  if (runs) {
    // The first run's arguments, then each resume's.
    await runCli(['run', file, '--journal', journal, ...runs[0]!]);
    for (const args of runs.slice(1)) await runCli(['run', file, '--resume', journal, ...args]);
  } else {
    // With parts, the first run is limited to part=x: (a,y) and (b,y) are never selected.
    const first = await runCli(['run', file, '--journal', journal, ...(parts ? ['--only', 'part=x'] : [])]);
    assert.equal(first.code, 1, `both in doubt:\n${first.stdout}${first.stderr}`);
    const a = await runCli(['run', file, '--resume', journal, '--only', 'site=a', '--force', '--in-doubt', 'retry']);
    assert.equal(a.code, 0, a.stdout + a.stderr);
  }
  const vfs = (site: string) =>
    sites
      .started()
      .get(site)!
      .requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs')).length;
  return { dir, file, journal, vfs };
}

test("report JOURNAL counts a write an earlier run left in doubt outside the last run's selection: exit 1, the doubt in the report", async (t) => {
  const s = await leftInDoubt(t);
  const json = join(s.dir, 'report.json');
  const report = await runCli(['report', s.journal, '--report-json', json]);
  assert.equal(report.code, 1, `b's write is still in doubt, undecided:\n${report.stdout}${report.stderr}`);
  const written = JSON.parse(readFileSync(json, 'utf8')) as Report;
  const b = written.steps.find((step) => step.matrix?.site === 'b');
  assert.ok(b, "b's instance is in the report");
  assert.equal(b.inDoubt?.status, 504, 'in doubt, its call answered by the gateway');
  assert.match(report.stdout, /VFS b/);
});

test("verify's then: line covers a doubt outside the last run's selection, and that command settles it, sending nothing", async (t) => {
  const s = await leftInDoubt(t);
  const verified = await runCli(['verify', s.journal]);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  const then = /^then: .*resume deciding: (enginectl run .*) --in-doubt skip \(applied\)/m.exec(verified.stdout);
  assert.ok(then, verified.stdout);
  const words = then[1]!;
  assert.ok(!/--only/.test(words) || /--only site=b\b/.test(words), `the doubt at b is selected: ${words}`);
  const sent = [s.vfs('a'), s.vfs('b')];
  const settled = await runCli([...then[1]!.split(' ').slice(1), '--in-doubt', 'skip'], { cwd: s.dir });
  assert.equal(settled.code, 0, settled.stdout + settled.stderr);
  assert.deepEqual([s.vfs('a'), s.vfs('b')], sent, 'nothing sent again');
  assert.match(settled.stdout, /VFS b: in doubt: treated as applied by the operator \(/);
  const after = await runCli(['report', s.journal]);
  assert.equal(after.code, 0, `b's doubt decided (treated as applied):\n${after.stdout}${after.stderr}`);
});

test("verify's then: line for a doubt outside the last run's selection selects that doubt, not instances no run selected: that command sends nothing", async (t) => {
  const s = await leftInDoubt(t, true);
  const verified = await runCli(['verify', s.journal]);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  const then = /^then: .*: (enginectl run .*) --in-doubt skip \(applied\)/m.exec(verified.stdout);
  assert.ok(then, verified.stdout);
  const sent = [s.vfs('a'), s.vfs('b')];
  const settled = await runCli([...then[1]!.split(' ').slice(1), '--in-doubt', 'skip'], { cwd: s.dir });
  assert.equal(settled.code, 0, settled.stdout + settled.stderr);
  assert.deepEqual([s.vfs('a'), s.vfs('b')], sent, 'nothing sent: (b,y) was never selected, and is not now');
  assert.doesNotMatch(settled.stdout, /VFS b y/);
});

test("verify's then: lines for doubts inside and outside the last run's selection, across two keys: each command decides its doubt, and none runs an instance no run selected ((a,y), (b,x))", async (t) => {
  const s = await leftInDoubt(t, true, [
    ['--only', 'site=a', '--only', 'part=x'],
    ['--only', 'site=b', '--only', 'part=y', '--force'],
  ]);
  const verified = await runCli(['verify', s.journal]);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  const lines = [...verified.stdout.matchAll(/^then: .*: (enginectl run .*) --in-doubt skip \(applied\)/gm)];
  assert.equal(lines.length, 2, verified.stdout);
  const sent = [s.vfs('a'), s.vfs('b')];
  for (const [, command] of lines) {
    const settled = await runCli([...command!.split(' ').slice(1), '--in-doubt', 'skip'], { cwd: s.dir });
    assert.equal(settled.code, 0, settled.stdout + settled.stderr);
    assert.doesNotMatch(settled.stdout, /VFS a y|VFS b x/, command);
  }
  assert.deepEqual([s.vfs('a'), s.vfs('b')], sent, 'nothing sent');
  const report = await runCli(['report', s.journal]);
  assert.equal(report.code, 0, `both doubts decided:\n${report.stdout}${report.stderr}`);
});
