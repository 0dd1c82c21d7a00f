// Rollouts in waves on the embedded emulator (each site a state of its own, one simulated clock):
// waves in order, a failure budget per wave, analysis between waves; a halt undoes nothing and the
// sites after it are reported not started.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { FLEET_STEPS } from '../helpers/fleet-steps.ts';

/** A fleet of `n` sites: a system update then a post-check per site, rolled out in `waves`. */
function fleet(n: number, rollout: string): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-waves-'));
  const sites = Array.from({ length: n }, (_, i) => `site-${String(i + 1).padStart(3, '0')}`);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet release
vars:
  sites: [${sites.join(', ')}]
servers:
${sites.map((s) => `  ${s}: { url: https://${s}.example.com }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
rollout:
${rollout}
${FLEET_STEPS}`,
  );
  return { file, dir };
}

/** The real time the run's clock moves with: standing still (the run starts there unless --clock says otherwise). */
const STILL = Date.parse('2026-03-10T04:00:10Z');

async function roll(n: number, rollout: string, ...args: string[]) {
  const { file, dir } = fleet(n, rollout);
  const json = join(dir, 'report.json');
  const summary = join(dir, 'summary.md');
  // The run's clock moves only by its waits, never with the real time a loaded machine takes.
  const r = await runCli(['run', file, '--emulator', '--report-json', json, '--summary', summary, ...args], {
    emulatorTime: () => STILL,
  });
  return { r, report: JSON.parse(readFileSync(json, 'utf8')) as Report, summary: readFileSync(summary, 'utf8') };
}

const stepsOf = (report: Report, site: string) =>
  report.steps.filter((s) => s.matrix?.site === site && s.round === null);
/**
 * The canary's update raises a critical alert 3 minutes on: with the run's clock starting 10 s past a
 * monitoring refresh (05:00:10Z) and moving only by the run's waits, the refresh at 05:04:00Z reads
 * it, so round 2 of the analysis (05:04:10Z) sees it and round 1 (05:02:10Z) does not, whatever the
 * wall clock's phase and however long the machine takes.
 */
const CANARY_ALERT = [
  '--clock',
  '2026-03-10T05:00:10Z',
  '--fault',
  'POST /api/devops/v1/update/system site=site-001 raise-alert=critical:disk_full after=3m',
];
const WAVES = `  over: site
  waves: [[site-001], 1, 40%, rest]
  max-parallel: 5`;

test('20 sites in 4 waves: each wave done, in order, with the analysis between them', async () => {
  const { r, report, summary } = await roll(20, `${WAVES}\n  analysis: { gates: [alerts], count: 2, interval: 2m }`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(
    report.rollout!.waves.map((w) => [w.values.length, w.outcome]),
    [
      [1, 'done'],
      [1, 'done'],
      [8, 'done'],
      [10, 'done'],
    ],
  );
  assert.equal(report.rollout!.halted, null);
  assert.deepEqual(
    report.rollout!.waves.slice(0, 3).map((w) => w.analysis?.passed),
    [true, true, true],
  );
  assert.equal(report.rollout!.waves[3]!.analysis, null, 'no analysis after the last wave');
  // Wave order: every step of wave 1 started before any of wave 2.
  const started = (wave: number) =>
    report.steps.filter((s) => s.wave === wave && s.round === null).map((s) => Date.parse(s.startedAt!));
  assert.ok(Math.max(...started(1)) <= Math.min(...started(2)));
  assert.ok(Math.max(...started(3)) <= Math.min(...started(4)));
  assert.match(r.stdout, /^ {2}wave 3\/4: site-003, site-004, .* \(site; at most 5 at once; 0 may fail\)$/m);
  assert.match(summary, /^\| 4 \| site-011, .* and 2 more \| ✅ done \|/m);
});

test('a canary whose update raises a critical alert halts the rollout: wave 2 is reported not started, nothing after it is sent', async () => {
  const { r, report, summary } = await roll(
    20,
    `${WAVES}\n  analysis: { gates: [alerts], count: 3, interval: 2m }`,
    ...CANARY_ALERT,
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const [first, second] = report.rollout!.waves;
  assert.equal(first!.outcome, 'halted');
  assert.match(first!.analysis!.text, /^round 2\/3: No critical alert at site-001 .*critical disk_full/);
  assert.equal(second!.outcome, 'not-started');
  assert.deepEqual(report.rollout!.halted, {
    wave: 1,
    reason: `the analysis after it failed: ${first!.analysis!.text}`,
    aborted: null, // no operator's abort: the analysis halted it
  });
  for (const step of stepsOf(report, 'site-002')) {
    assert.equal(step.outcome, 'cancelled');
    assert.equal(step.startedAt, null, 'not started');
    assert.equal(step.error?.code, 'ROLLOUT_HALTED');
    assert.equal(
      step.error!.message,
      'not started: the rollout halted at wave 1',
      "where; why is the rollout's, said once",
    );
  }
  assert.equal(
    stepsOf(report, 'site-001')[0]!.outcome,
    'success',
    "the canary's update stays applied: nothing is undone",
  );
  assert.match(r.stdout, /the rollout halted at wave 1: the analysis after it failed: .*; nothing is undone/);
  assert.match(summary, /\*\*The rollout halted at wave 1\*\*/);
  assert.match(summary, /^\| 2 \| site-002 \| ⏸️ not started \|/m);
});

test('the HTML report of a halted rollout has its waves and a headline naming the halt; the rows not started say so in a line, the reason told once', async () => {
  const { file, dir } = fleet(20, `${WAVES}\n  analysis: { gates: [alerts], count: 3, interval: 2m }`);
  const html = join(dir, 'report.html');
  const summary = join(dir, 'summary.md');
  const r = await runCli(['run', file, '--emulator', '--html', html, '--summary', summary, ...CANARY_ALERT]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const page = readFileSync(html, 'utf8');
  assert.match(
    page,
    /<strong>The rollout halted at wave 1<\/strong>: the analysis after it failed: round 2\/3: No critical alert at site-001 [^<]*critical disk_full[^<]*\. Nothing was undone; the waves after it did not start\./,
  );
  assert.match(page, /<h2>Waves<\/h2>/);
  assert.match(page, /<tr><td>2<\/td><td>site-002<\/td><td>[^<]*not started<\/td>/);
  assert.match(page, /<tr><td>1<\/td><td>site-001<\/td><td>[^<]*halted<\/td>/);
  // Each row not started says where the rollout halted; why is said once, above.
  assert.match(page, /<div class="error">not started: the rollout halted at wave 1<\/div>/);
  const once = (text: string) => text.split('disk_full').length - 1;
  assert.ok(
    once(page) <= 3,
    `the halt's reason is told once, not on each of the 38 rows not started (${once(page)} times)`,
  );
  const md = readFileSync(summary, 'utf8');
  assert.ok(once(md) <= 3, `the same in the Markdown summary (${once(md)} times)`);
});

test('max-failures: 10%: 3 of 10 sites failing in wave 2 halts it, and the sites not started stay so', async () => {
  const faults = ['site-003', 'site-004', 'site-005'].flatMap((s) => [
    '--fault',
    `POST /api/devops/v1/update/system site=${s} status=500`,
  ]);
  const { r, report } = await roll(
    20,
    `  over: site\n  waves: [[site-001], 10, rest]\n  max-parallel: 3\n  max-failures: 10%`,
    ...faults,
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const wave = report.rollout!.waves[1]!;
  assert.equal(wave.budget, 1);
  assert.equal(wave.outcome, 'halted');
  assert.ok(wave.failed.length >= 2 && wave.failed.length <= 3, `failed: ${wave.failed.join(', ')}`);
  assert.equal(report.rollout!.waves[2]!.outcome, 'not-started');
  // Past the budget, the wave's sites not yet started did not start.
  const notStarted = wave.values.filter((v) => stepsOf(report, v)[0]!.error?.code === 'ROLLOUT_HALTED');
  assert.ok(notStarted.length >= 5, `not started in wave 2: ${notStarted.join(', ')}`);
  assert.match(
    stepsOf(report, notStarted[0]!)[0]!.error!.message,
    /^not started: wave 2 had \d failed site\(s\), over its budget of 1$/,
  );
  // A failed site stops that site only: its post-check is skipped.
  assert.equal(stepsOf(report, 'site-003')[1]!.outcome, 'skipped');
});

test('within the budget the rollout finishes, reports the failure, and exits 1', async () => {
  const { r, report, summary } = await roll(
    20,
    `  over: site\n  waves: [[site-001], 10, rest]\n  max-parallel: 3\n  max-failures: 20%`,
    '--fault',
    'POST /api/devops/v1/update/system site=site-004 status=500',
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.deepEqual(
    report.rollout!.waves.map((w) => w.outcome),
    ['done', 'failed-within-budget', 'done'],
  );
  assert.deepEqual(report.rollout!.waves[1]!.failed, ['site-004']);
  assert.equal(report.rollout!.halted, null);
  assert.equal(stepsOf(report, 'site-020')[0]!.outcome, 'success', 'the last wave ran');
  assert.match(summary, /^\| 2 \| .* \| ⚠️ failed within budget \| site-004 \| 2 \|/m);
});

test('a wave in which every site failed never passes its analysis, within its budget too: the rollout halts before the next wave', async () => {
  const { r, report } = await roll(
    3,
    `  over: site\n  waves: [[site-001], rest]\n  max-failures: 1\n  analysis: { gates: [alerts], count: 2, interval: 2m }`,
    '--fault',
    'POST /api/devops/v1/update/system site=site-001 status=500',
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const [canary, rest] = report.rollout!.waves;
  assert.deepEqual(canary!.failed, ['site-001']);
  assert.equal(canary!.outcome, 'halted');
  assert.equal(canary!.analysis!.passed, false);
  assert.equal(canary!.analysis!.text, 'no site of the wave succeeded (site-001 failed): nothing to analyse');
  assert.equal(rest!.outcome, 'not-started');
  assert.equal(stepsOf(report, 'site-002')[0]!.error?.code, 'ROLLOUT_HALTED', 'site-002 is not updated');
  assert.match(r.stdout, /the rollout halted at wave 1: the analysis after it failed: no site of the wave succeeded/);
});

test('200 sites in 4 waves run on the simulated clock', async () => {
  const { r, report } = await roll(
    200,
    `  over: site\n  waves: [[site-001], 10%, 40%, rest]\n  max-parallel: 20\n  analysis: { gates: [alerts], count: 2, interval: 5m }`,
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(
    report.rollout!.waves.map((w) => w.values.length),
    [1, 20, 80, 99],
  );
  assert.equal(report.counts.success, report.counts.total);
  assert.match(r.stdout, /\(simulated clock: waits took 30m of emulator time\)/);
});

test('rollout mistakes are located: an unknown key, a value no matrix has, a gate that writes, an interval under 2m', async () => {
  const { file } = fleet(3, `  over: sites\n  waves: [[site-009]]\n  analysis: { gates: [nope], interval: 30s }`);
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /fleet\.yml:12:9 no step has a matrix over "sites": the rollout splits nothing\n[\s\S]*hint: did you mean "site"\?/,
  );
  const gates = fleet(
    3,
    `  over: site\n  waves: [[site-009]]\n  analysis: { gates: [alerts, update, nope], interval: 30s }`,
  );
  const g = await runCli(['validate', gates.file]);
  assert.match(g.stderr, /"site-009" is no value of site in the steps' matrices/);
  assert.match(g.stderr, /no step has the id "nope"/);
  assert.match(g.stderr, /step "update" \(update\/system\) is not read-only: analysis only reads/);
  assert.match(g.stderr, /interval 30s is under 2m: monitoring data is refreshed every 2 minutes/);
});

test('rollout shape mistakes name their cause at their line: a value where a wave goes, the gates beside the waves', async () => {
  const bare = fleet(3, `  over: site\n  waves: [site-001, 1, rest]`);
  const b = await runCli(['validate', bare.file]);
  assert.equal(b.code, 2, b.stdout + b.stderr);
  assert.match(
    b.stderr,
    /fleet\.yml:13:11 rollout\.waves\[0\]: "site-001" is no wave: write \[site-001\] for a wave of that value; a wave is a list of values, a count \(2\), a percentage of all values \(10%\) or rest\n/,
  );
  assert.doesNotMatch(b.stderr, /a percentage: 1% to 100%/);
  const gates = fleet(3, `  over: site\n  waves: [[site-001], rest]\n  gates: [alerts]`);
  const g = await runCli(['validate', gates.file]);
  assert.equal(g.code, 2, g.stdout + g.stderr);
  assert.match(
    g.stderr,
    /fleet\.yml:14:3 unknown key "gates" in rollout: it is a key of rollout\.analysis\n[\s\S]*hint: write it under analysis: \(analysis: \{ gates: … \}\)/,
  );
  assert.doesNotMatch(g.stderr, /did you mean "waves"/);
});

test('rest before another wave is refused at its line: the canary would run after the rest of the fleet', async () => {
  const { file } = fleet(3, `  over: site\n  waves: [rest, [site-001]]`);
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /fleet\.yml:13:11 rest is wave 1 of 2: it takes every value no other wave names, so the waves after it would run after the rest of the fleet\n[\s\S]*hint: make rest the last wave: waves: \[\[site-001\], rest\]/,
  );
  const run = await runCli(['run', file, '--emulator']);
  assert.equal(run.code, 2, 'nothing runs');
  assert.doesNotMatch(run.stdout, /wave 1/);
});

test('--only on a rollout says which waves of the rollout this run leaves out: the canary is not part of it', async () => {
  const { r, report } = await roll(
    12,
    `  over: site\n  waves: [[site-001], 3, rest]`,
    '--only',
    'site=site-003',
    '--only',
    'site=site-010',
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /^ {2}warning this run \(limited to: site=site-003 or site=site-010\) leaves out of the rollout wave 1 \(site-001\), 2 of wave 2's 3 \(site-002, site-004\), 7 of wave 3's 8 \(site-005, site-006, site-007, site-008, site-009 and 2 more\): its waves are formed from the values selected only\n/m,
  );
  assert.match(r.stdout, /^ {2}wave 1\/1: site-003, site-010 /m);
  assert.deepEqual(
    report.rollout!.waves.map((w) => w.values),
    [['site-003', 'site-010']],
  );
  const whole = await roll(3, `  over: site\n  waves: [[site-001], rest]`);
  assert.doesNotMatch(whole.r.stdout, /leaves out of the rollout/);
});

test('a resume after a halt goes on only when the operator says so, and the decision is in the journal', async () => {
  const { file, dir } = fleet(
    6,
    `  over: site\n  waves: [[site-001], rest]\n  max-parallel: 3\n  analysis: { gates: [alerts], count: 2, interval: 2m }`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  const first = await runCli([
    'run',
    file,
    '--emulator',
    '--journal',
    journal,
    '--fault',
    'POST /api/devops/v1/update/system site=site-001 raise-alert=critical:disk_full after=1m',
  ]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /the rollout halted at wave 1/);
  // The journal tells the same story as the run: the halt, its analysis, the sites not started.
  const rendered = await runCli([
    'report',
    journal,
    '--summary',
    join(dir, 'from-journal.md'),
    '--report-json',
    join(dir, 'from-journal.json'),
  ]);
  assert.equal(rendered.code, 1, rendered.stdout + rendered.stderr);
  assert.match(rendered.stdout, /^pipeline "Fleet release": failure /m);
  const fromJournal = JSON.parse(readFileSync(join(dir, 'from-journal.json'), 'utf8')) as Report;
  assert.deepEqual(
    fromJournal.rollout!.waves.map((w) => w.outcome),
    ['halted', 'not-started'],
  );
  assert.equal(stepsOf(fromJournal, 'site-002')[0]!.error?.code, 'ROLLOUT_HALTED');
  assert.ok(
    fromJournal.steps.some((s) => s.round !== null && s.outcome === 'failure'),
    'the failed analysis round is in it',
  );
  assert.match(readFileSync(join(dir, 'from-journal.md'), 'utf8'), /\*\*The rollout halted at wave 1\*\*/);
  // Resuming would go on with wave 2: refused, nothing sent, until the operator says so.
  const refused = await runCli(['run', file, '--emulator', '--resume', journal]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    /^enginectl: .*run\.journal\.jsonl: the rollout halted at wave 1 \(the analysis after it failed: .*\); resuming goes on with the waves after it/,
  );
  assert.match(refused.stderr, /hint: check the sites of that wave first; then resume with --continue-rollout/);
  assert.doesNotMatch(refused.stdout, /▶/, 'no step started');
  const json = join(dir, 'resumed.json');
  const going = await runCli([
    'run',
    file,
    '--emulator',
    '--resume',
    journal,
    '--continue-rollout',
    '--report-json',
    json,
  ]);
  assert.equal(going.code, 0, going.stdout + going.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.deepEqual(
    report.rollout!.waves.map((w) => w.outcome),
    ['done', 'done'],
  );
  assert.equal(stepsOf(report, 'site-001')[0]!.resume, 'earlier-run', "the canary's update is not sent again");
  assert.equal(stepsOf(report, 'site-006')[0]!.outcome, 'success');
  assert.match(readFileSync(journal, 'utf8'), /"t":"continue","wave":1,"by":"[^"]+","at":\d+/);
  // The decision is a decision in every report, not in the journal only.
  assert.deepEqual(
    report.decisions.map((d) => [d.decision, d.wave]),
    [['continue-rollout', 1]],
  );
  const again = join(dir, 'again');
  assert.equal(
    (
      await runCli([
        'report',
        journal,
        '--summary',
        `${again}.md`,
        '--html',
        `${again}.html`,
        '--junit',
        `${again}.xml`,
      ])
    ).code,
    0,
  );
  for (const ext of ['md', 'html', 'xml'])
    assert.match(
      readFileSync(`${again}.${ext}`, 'utf8'),
      /The rollout went on past wave 1, where it had halted, on the operator(&#39;|'|&apos;)s decision \(/,
      ext,
    );
});

test('a resumed rollout carries the analyses that passed in an earlier run: only the analysis after the halted wave runs again', async () => {
  const { file, dir } = fleet(
    4,
    `  over: site\n  waves: [[site-001], [site-002], rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m }`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  const first = await runCli([
    'run',
    file,
    '--emulator',
    '--journal',
    journal,
    '--fault',
    'POST /api/devops/v1/update/system site=site-002 status=409',
  ]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /the rollout halted at wave 2/);
  const json = join(dir, 'resumed.json');
  const going = await runCli([
    'run',
    file,
    '--emulator',
    '--resume',
    journal,
    '--continue-rollout',
    '--report-json',
    json,
  ]);
  assert.equal(going.code, 0, going.stdout + going.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.deepEqual(
    report.steps.filter((s) => s.round !== null).map((s) => [s.wave, s.round]),
    [
      [2, 1],
      [2, 2],
    ],
    'no round of wave 1 ran again',
  );
  assert.equal(report.rollout!.waves[0]!.analysis!.passed, true);
  assert.match(report.rollout!.waves[0]!.analysis!.text, /\(in an earlier run\)$/);
  assert.match(
    going.stdout,
    /^ {2}wave 1\/3: its analysis passed in an earlier run and none of its sites ran again: not repeated$/m,
  );
  assert.match(going.stdout, /\(simulated clock: waits took 4m of emulator time\)/);
});

test('plan shows the waves, their budgets and the analysis, and each step of the rollout as run site by site', async () => {
  const { file } = fleet(20, `${WAVES}\n  max-failures: 10%\n  analysis: { gates: [alerts], count: 2, interval: 5m }`);
  const r = await runCli(['plan', file, '--emulator']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /^rollout over site: 4 wave\(s\), at most 5 at once; between waves: alerts, 2 round\(s\) 5m apart, 0 may fail$/m,
  );
  assert.match(r.stdout, /^ {2}wave 1: site-001 \(0 may fail\)$/m);
  assert.match(r.stdout, /^ {2}wave 4: site-011, .*, site-020 \(1 may fail\)$/m);
  assert.match(
    r.stdout,
    /\[1\/2\] Update site-001 \(update\/system\) on server site-001\n {4}rollout: site by site, in its waves\n/,
  );
  assert.doesNotMatch(r.stdout, /matrix: max-parallel/);
});

test("a resume that halts at an earlier wave leaves a later wave's write in doubt as it was, the operator's --in-doubt skip standing: the next resume never sends it again", async () => {
  const { file, dir } = fleet(3, `  over: site\n  waves: [[site-001], rest]\n  max-failures: 0`);
  const journal = join(dir, 'run.journal.jsonl');
  const sends = (site: string) =>
    readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"t":"send"') && l.includes(`\\"site\\":\\"${site}\\"`) && l.includes('update/system'))
      .length;
  // site-002's update answered and its answer cut: in doubt; the rollout halts at wave 2.
  const first = await runCli([
    ...['run', file, '--emulator', '--journal', journal],
    ...['--fault', 'POST /api/devops/v1/update/system site=site-002 reset=after times=1'],
  ]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  // The operator checked: it was applied. The resume's gate at site-001 fails now: it halts at wave 1.
  const resumed = await runCli([
    ...['run', file, '--emulator', '--resume', journal, '--in-doubt', 'skip', '--continue-rollout'],
    ...['--fault', 'GET /api/monitoring/v1/alerts site=site-001 status=500'],
  ]);
  assert.equal(resumed.code, 1, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /the rollout halted at wave 1/);
  const json = join(dir, 'halted.json');
  await runCli(['report', journal, '--report-json', json]);
  const update2 = (JSON.parse(readFileSync(json, 'utf8')) as Report).steps.find(
    (s) => s.id === 'update' && s.matrix?.site === 'site-002',
  )!;
  assert.deepEqual(
    [update2.inDoubt?.method, update2.decision?.decision],
    ['POST', 'skip'],
    'still in doubt, the decision standing',
  );
  const again = await runCli(['run', file, '--emulator', '--resume', journal, '--continue-rollout']);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(sends('site-002'), 1, 'the write the operator said was applied is not sent again');
});
