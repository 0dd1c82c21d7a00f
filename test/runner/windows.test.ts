// Admission per write, end to end on the emulator's simulated clock (run --emulator --clock): a
// write that would overrun its window is not started, the run stops with every report naming the
// next window it fits in; a read is never held back; an override from an identity the pipeline
// allows goes through and is recorded in the journal and the reports; anyone else's is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { renderWindows } from '../../src/report/plan-text.ts';
import { buildReport } from '../../src/report/model.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { runCli } from '../helpers/cli.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

const PIPELINE = `version: 1
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: Europe/Berlin }
freezes:
  quarter-close:
    zone: UTC
    dates: [{ from: 2026-03-28, to: 2026-04-02 }]
override-freeze: [alice]
steps:
  - id: alerts
    uses: monitoring/alerts
  - id: clear
    uses: transaction-log/clear
    expected: 40m
`;

interface Step {
  id: string;
  outcome: string;
  error: { code: string; message: string } | null;
  warnings: string[];
  window: {
    verdict: string;
    next: string | null;
    needMs: number;
    expectedFrom: string;
    override: { by: string; reason: string; as?: string } | null;
  } | null;
}

async function run(clock: string, extra: string[] = [], env: Record<string, string> = {}, pipeline = PIPELINE) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-windows-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, pipeline);
  const r = await runCli(
    [
      'run',
      file,
      '--emulator',
      '--clock',
      clock,
      '--report-json',
      join(dir, 'r.json'),
      '--summary',
      join(dir, 'r.md'),
      '--journal',
      join(dir, 'j.jsonl'),
      ...extra,
    ],
    { env },
  );
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  const report = read('r.json') ? (JSON.parse(read('r.json')) as { steps: Step[] }) : undefined;
  const step = (id: string) => report?.steps.find((s) => s.id === id);
  return { ...r, step, summary: read('r.md'), journal: read('j.jsonl'), journalPath: join(dir, 'j.jsonl') };
}

test('a write that would overrun its window is not started: every report names the next window', async () => {
  // Berlin is UTC+1 in March: the window is 01:00Z to 03:00Z; the write needs 40m + 10% = 44m.
  const r = await run('2026-03-10T02:30:00Z');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.step('alerts')?.outcome, 'success', 'a read is never held back');
  const clear = r.step('clear')!;
  assert.equal(clear.outcome, 'failure');
  assert.equal(clear.error?.code, 'WINDOW_CLOSED');
  assert.match(clear.error!.message, /would overrun its window \(ending 2026-03-10T03:00:00.000Z\) by 14m/);
  assert.match(clear.error!.message, /the next window it fits in opens at 2026-03-11T01:00:00.000Z/);
  assert.equal(clear.window?.verdict, 'overrun');
  assert.equal(clear.window?.next, '2026-03-11T01:00:00.000Z');
  assert.equal(clear.window?.needMs, 44 * 60_000);
  assert.match(r.summary, /2026-03-11T01:00:00.000Z/, 'the summary names the next window');
  assert.match(
    r.summary,
    /\| Clear the transaction log \(iLog\) \(window: would overrun by 14m\S*; next fits at 2026-03-11T01:00:00.000Z\) \|/,
    "the write's row says its verdict",
  );
  assert.match(r.stdout + r.stderr, /WINDOW_CLOSED|2026-03-11T01:00:00.000Z/);
  assert.match(r.journal, /"verdict":"overrun"/, 'the journal keeps the verdict');
});

test('inside its window and clear of freezes, the write runs', async () => {
  const r = await run('2026-03-10T01:05:00Z');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.step('clear')?.outcome, 'success');
  assert.equal(r.step('clear')?.window?.verdict, 'fits');
  assert.equal(r.step('alerts')?.window, null, 'a read has no verdict');
});

test('inside a freeze, an allowed override goes through and is recorded; anyone else is refused', async () => {
  const frozen = await run('2026-03-30T01:05:00Z');
  assert.equal(frozen.code, 1);
  assert.match(frozen.step('clear')!.error!.message, /freeze "quarter-close" holds .* until 2026-04-02T00:00:00.000Z/);
  // Berlin is in summer time by then (UTC+2): its 02:00 is 00:00Z, as the freeze ends.
  assert.match(frozen.step('clear')!.error!.message, /opens at 2026-04-02T00:00:00.000Z/);
  assert.match(
    frozen.summary,
    /\(window: frozen by quarter-close until 2026-04-02T00:00:00.000Z; next fits at 2026-04-02T00:00:00.000Z\)/,
  );

  const alice = await run('2026-03-30T01:05:00Z', ['--override-freeze', '--reason', 'INC-42 hotfix'], {
    USER: 'alice',
  });
  assert.equal(alice.code, 0, alice.stdout + alice.stderr);
  const clear = alice.step('clear')!;
  assert.equal(clear.outcome, 'success');
  assert.deepEqual(clear.window?.override, { by: 'alice', reason: 'INC-42 hotfix', as: 'alice' });
  assert.equal(clear.window?.verdict, 'frozen');
  assert.match(alice.summary, /window overridden by alice for "INC-42 hotfix": freeze "quarter-close"/);
  assert.match(alice.journal, /"override":\{"by":"alice","reason":"INC-42 hotfix","as":"alice"\}/);
  // The override is on disk ahead of the write it lets through.
  const lines = alice.journal
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const ahead = lines.findIndex((l) => l.t === 'override' && l.key === 'id:clear');
  assert.ok(ahead >= 0, 'an override record');
  assert.equal(lines[ahead]!.by, 'alice');
  assert.equal(lines[ahead]!.reason, 'INC-42 hotfix');
  assert.match(String(lines[ahead]!.why), /freeze "quarter-close"/);
  assert.ok(ahead < lines.findIndex((l) => l.t === 'send' && l.key === 'id:clear'), 'written before the write left');

  const mallory = await run('2026-03-30T01:05:00Z', ['--override-freeze', '--reason', 'because'], { USER: 'mallory' });
  assert.equal(mallory.code, 2);
  assert.match(
    mallory.stderr,
    /--override-freeze by mallory: the pipeline.s override-freeze: lists alice; nothing was sent/,
  );
  assert.equal(mallory.journal, '', 'nothing was run');
});

test("a secret in the override's --reason is masked in the journal and every report, also those report renders from the journal", async () => {
  const SECRET = 'S3cretIncident99';
  const pipeline = PIPELINE.replace('version: 1\n', 'version: 1\nvars:\n  incident: "${{ secrets.INCIDENT_TOKEN }}"\n');
  const alice = await run(
    '2026-03-30T01:05:00Z',
    ['--override-freeze', '--reason', `hotfix, token ${SECRET}`],
    { USER: 'alice', INCIDENT_TOKEN: SECRET },
    pipeline,
  );
  assert.equal(alice.code, 0, alice.stdout + alice.stderr);
  assert.equal(alice.step('clear')!.window?.override?.reason, 'hotfix, token ***');
  assert.ok(!alice.journal.includes(SECRET), 'no record of the journal holds it');
  assert.ok(!alice.summary.includes(SECRET) && !alice.stdout.includes(SECRET));
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-windows-'));
  const again = await runCli([
    'report',
    alice.journalPath,
    '--summary',
    join(dir, 'r.md'),
    '--report-json',
    join(dir, 'r.json'),
  ]);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  for (const f of ['r.md', 'r.json']) assert.ok(!readFileSync(join(dir, f), 'utf8').includes(SECRET), f);
});

test("without expected:, the p95 of earlier runs' durations (--history) is what must fit; without history, an hour", async () => {
  const undeclared = PIPELINE.replace('    expected: 40m\n', '');
  // No history and no declaration: an hour (+10%) does not fit in the 30 minutes left.
  const guessed = await run('2026-03-10T02:30:00Z', [], {}, undeclared);
  assert.equal(guessed.step('clear')?.window?.expectedFrom, 'default');
  assert.equal(guessed.step('clear')?.error?.code, 'WINDOW_CLOSED');
  // Three earlier runs early in the window: their writes took milliseconds (the emulator answers at once).
  const earlier = [];
  for (let i = 0; i < 3; i++) {
    const r = await run('2026-03-09T01:05:00Z', [], {}, undeclared);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    earlier.push('--history', r.journalPath);
  }
  const informed = await run('2026-03-10T02:30:00Z', earlier, {}, undeclared);
  assert.equal(informed.code, 0, informed.stdout + informed.stderr);
  assert.equal(informed.step('clear')?.window?.expectedFrom, 'history');
  assert.equal(informed.step('clear')?.window?.verdict, 'fits');
});

test("a step's longest: bounds its write at the server, its timeout: only the call: a write with timeout: 30s and longest: 1h is not started an hour before its window ends", async () => {
  // The call is cut at 30s; the server's work goes on (the API cannot show it), up to the step's longest:.
  const bounded = PIPELINE.replace('    expected: 40m\n', '    timeout: 30s\n    longest: 1h\n');
  const r = await run('2026-03-10T01:58:00Z', [], {}, bounded);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const clear = r.step('clear')!;
  assert.equal(clear.error?.code, 'WINDOW_CLOSED');
  assert.equal(clear.window?.expectedFrom, 'longest');
  assert.equal(clear.window?.needMs, 66 * 60_000);
  assert.match(clear.error!.message, /the next window it fits in opens at 2026-03-11T01:00:00.000Z/);
  // With expected: declared, that is what must fit (the author's word on the write's usual time).
  const declared = await run(
    '2026-03-10T01:05:00Z',
    [],
    {},
    bounded.replace('    longest: 1h\n', '    longest: 1h\n    expected: 20m\n'),
  );
  assert.equal(declared.code, 0, declared.stdout + declared.stderr);
  assert.equal(declared.step('clear')?.window?.expectedFrom, 'declared');
});

test('plan --history reads the need from the same earlier durations the run does (before, plan knew no history and said "fits now" where the run refused)', async () => {
  const undeclared = PIPELINE.replace('    expected: 40m\n', '');
  const earlier = [];
  for (let i = 0; i < 3; i++) {
    const r = await run('2026-03-09T01:05:00Z', [], {}, undeclared);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    earlier.push('--history', r.journalPath);
  }
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-windows-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, undeclared);
  const plan = await runCli(['plan', file, '--emulator', ...earlier]);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
  assert.match(plan.stdout, /\] clear: needs \S+ \(the p95 of 3 earlier writes\)/);
  const bare = await runCli(['plan', file, '--emulator']);
  assert.match(bare.stdout, /\] clear: needs 1h6m \(the default for a write without history\)/);
});

test('plan shows per site the next window and which writes fit in it', async () => {
  const sites = `version: 1
servers:
  eu: { url: https://eu.example.com }
  us: { url: https://us.example.com }
windows:
  eu-night: { cron: '0 2 * * *', duration: 2h, zone: Europe/Berlin, matrix: { site: [eu] } }
  us-night: { cron: '0 22 * * *', duration: 6h, zone: America/New_York, matrix: { site: [us] } }
steps:
  - id: alerts
    uses: monitoring/alerts
    matrix: { site: [eu, us] }
    server: \${{ matrix.site }}
  - id: clear
    uses: transaction-log/clear
    matrix: { site: [eu, us] }
    server: \${{ matrix.site }}
    expected: 40m
  - id: vfs
    uses: transaction-log/clear
    matrix: { site: [eu] }
    server: \${{ matrix.site }}
    expected: 3h
`;
  const { pipeline } = loadPipeline({ file: 'p.yml', text: sites, env: {} });
  assert.equal(
    renderWindows(pipeline, undefined, Date.parse('2026-03-10T02:30:00Z')),
    [
      'windows at 2026-03-10T02:30:00.000Z:',
      '  site=eu: open until 2026-03-10T03:00:00.000Z',
      '    [2/3] clear: needs 44m (expected:): not now, it needs 44m and would overrun its window (ending 2026-03-10T03:00:00.000Z) by 14m; fits from 2026-03-11T01:00:00.000Z',
      '    [3/3] vfs: needs 3h18m (expected:): not now, it needs 3h18m and would overrun its window (ending 2026-03-10T03:00:00.000Z) by 2h48m; fits from no window within 400 days',
      // New York is UTC-4 from March 8: 22:00 there is 02:00Z.
      '  site=us: open until 2026-03-10T08:00:00.000Z',
      '    [2/3] clear: needs 44m (expected:): fits now',
      '',
    ].join('\n'),
  );
  // Through the command: a freeze over every date it looks at names no opening.
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-windows-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `${PIPELINE}`.replace(
      'dates: [{ from: 2026-03-28, to: 2026-04-02 }]',
      'dates: [{ from: 2000-01-01, to: 2100-01-01 }]',
    ),
  );
  const plan = await runCli(['plan', file, '--emulator']);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
  assert.match(plan.stdout, /every instance: closed; next opening none within 400 days/);
  assert.match(
    plan.stdout,
    /clear: needs 44m \(expected:\): not now, freeze "quarter-close" holds from 2000-01-01T00:00:00.000Z until 2100-01-01T00:00:00.000Z; fits from no window within 400 days/,
  );
});

test("with a run store, its latest runs' durations are the history", async () => {
  const undeclared = PIPELINE.replace('    expected: 40m\n', '');
  const store = mkdtempSync(join(tmpdir(), 'enginectl-windows-store-'));
  for (let i = 0; i < 3; i++) {
    const r = await run('2026-03-09T01:05:00Z', ['--store', store], {}, undeclared);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  const informed = await run('2026-03-10T02:30:00Z', ['--store', store], {}, undeclared);
  assert.equal(informed.code, 0, informed.stdout + informed.stderr);
  assert.equal(informed.step('clear')?.window?.expectedFrom, 'history');
});

test('an override shows in the summary also for a write whose server reported warnings of its own', async (t) => {
  const yaml = oneStep(
    'update/vfs',
    '{ target: prod, files: [1001] }',
    `    expected: 10m
freezes:
  always: { zone: UTC, dates: [{ from: 2000-01-01, to: 2100-01-01 }] }
override-freeze: [alice]
`,
  );
  const { result } = await runYaml(t, yaml, { windowOverride: { by: 'alice', reason: 'INC-7' } });
  const step = result.steps[0]!;
  assert.equal(step.outcome, 'success');
  assert.ok(Array.isArray((step.result as { warnings?: unknown }).warnings), 'the server answered with its warnings');
  assert.match(
    renderMarkdown(buildReport(result)),
    /- ⚠️ \*\*the step\*\*: window overridden by alice for "INC-7": freeze "always" holds from 2000-01-01T00:00:00.000Z until 2100-01-01T00:00:00.000Z/,
  );
});

test('--override-freeze needs --reason, --clock needs --emulator and a time: refused before anything runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-windows-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  const noReason = await runCli(['run', file, '--emulator', '--override-freeze'], { env: { USER: 'alice' } });
  assert.equal(noReason.code, 2);
  assert.match(noReason.stderr, /--override-freeze goes with --reason/);
  const noEmulator = await runCli(['run', file, '--clock', '2026-03-10T02:30:00Z']);
  assert.equal(noEmulator.code, 2);
  assert.match(noEmulator.stderr, /--clock goes with --emulator/);
  const badTime = await runCli(['run', file, '--emulator', '--clock', 'soon']);
  assert.equal(badTime.code, 2);
  assert.match(badTime.stderr, /--clock soon is no ISO 8601 time/);
  // A time without its offset would be read in the machine's zone (another window on another
  // machine), and Date.parse takes much that is no ISO 8601 (1, "March 10, 2026 03:00"): refused.
  for (const clock of ['2026-03-10T03:00', '1', 'March 10, 2026 03:00', '2026-02-30T02:00Z', '2026-03-10T24:00Z']) {
    const loose = await runCli(['run', file, '--emulator', '--clock', clock]);
    assert.equal(loose.code, 2, `--clock ${clock}: ${loose.stdout}${loose.stderr}`);
    assert.match(loose.stderr, /is no ISO 8601 time with its offset/);
  }
});

test("override-freeze: rules match the CI's identity: GitHub's actor with its repository and ref (the fields its OIDC claims mirror), GitLab's user and environment, a Jenkins user", async () => {
  const rules = PIPELINE.replace(
    'override-freeze: [alice]',
    `override-freeze:
  - { actor: alice, repository: acme/ops, ref: refs/heads/main }
  - { repository: acme/ops, environment: production }
  - jenkins-ops`,
  );
  const frozen = '2026-03-30T01:05:00Z';
  const override = ['--override-freeze', '--reason', 'INC-42'];
  const github = { GITHUB_ACTIONS: 'true', GITHUB_ACTOR: 'alice', GITHUB_REPOSITORY: 'acme/ops' };
  const ok = await run(frozen, override, { ...github, GITHUB_REF: 'refs/heads/main' }, rules);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.deepEqual(ok.step('clear')?.window?.override, {
    by: 'alice',
    reason: 'INC-42',
    as: 'actor alice, repository acme/ops, ref refs/heads/main',
  });
  // The same actor from another branch meets no rule: refused, nothing sent.
  const branch = await run(frozen, override, { ...github, GITHUB_REF: 'refs/heads/hack' }, rules);
  assert.equal(branch.code, 2, branch.stdout + branch.stderr);
  assert.match(
    branch.stderr,
    /--override-freeze by alice \(repository acme\/ops, ref refs\/heads\/hack\): .*nothing was sent/,
  );
  assert.equal(branch.journal, '');
  const gitlab = { GITLAB_CI: 'true', GITLAB_USER_LOGIN: 'bob', CI_PROJECT_PATH: 'acme/ops' };
  const prod = await run(frozen, override, { ...gitlab, CI_ENVIRONMENT_NAME: 'production' }, rules);
  assert.equal(prod.code, 0, prod.stdout + prod.stderr);
  assert.equal(prod.step('clear')?.window?.override?.by, 'bob');
  const staging = await run(frozen, override, { ...gitlab, CI_ENVIRONMENT_NAME: 'staging' }, rules);
  assert.equal(staging.code, 2, staging.stdout + staging.stderr);
  const jenkins = await run(
    frozen,
    override,
    { JENKINS_URL: 'https://ci.example.com', BUILD_USER_ID: 'jenkins-ops' },
    rules,
  );
  assert.equal(jenkins.code, 0, jenkins.stdout + jenkins.stderr);
  assert.equal(jenkins.step('clear')?.window?.override?.as, 'jenkins-ops');
});
