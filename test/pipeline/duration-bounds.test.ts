// A duration of hundreds of digits is no number a run can use: 10^400 s parses to Infinity and
// 10^300 s to a number no date holds, so a window, a freeze or a write's expected time past it
// ended the run in an internal error ("Invalid time value"), a bake waited "Infinityh". Every
// duration is at most 876000h (100 years), one that becomes a timer at most 596h: refused by
// validate at file:line:col, and each command-line flag that takes a duration as bad arguments.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const digits = (n: number) => `1${'0'.repeat(n - 1)}`;
/** Infinity as a number. */
const HUGE = `${digits(400)}s`;
/** A number, but no date's distance. */
const LARGE = `${digits(300)}s`;
const LIMIT = /at most 876000h \(100 years\)/;
const TIMER = /at most 596h \(2\^31-1 ms, the longest a timer holds\)/;
/** No message repeats the hundreds of digits. */
const ECHO = /\d{100}/;

test('validate refuses a duration of hundreds of digits at its file:line:col, and a run sends nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-duration-bounds-'));
  const fleet = (rollout: string) =>
    `vars: { sites: [test, prod] }\nrollout: { over: site, waves: [[test], rest]${rollout} }\nsteps:\n  - uses: transaction-log/clear\n    matrix: { site: "\${{ vars.sites }}" }\n`;
  const cases: [string, string, RegExp][] = [
    [`steps:\n  - uses: transaction-log/clear\n    expected: ${LARGE}\n`, ':4:', LIMIT],
    [`steps:\n  - uses: transaction-log/clear\n    longest: ${HUGE}\n`, ':4:', LIMIT],
    [
      `windows:\n  nightly: { cron: "0 22 * * *", duration: ${HUGE}, zone: UTC }\nsteps:\n  - uses: transaction-log/clear\n`,
      ':3:',
      LIMIT,
    ],
    [
      `freezes:\n  x: { cron: "0 22 * * *", duration: ${LARGE}, zone: UTC }\nsteps:\n  - uses: transaction-log/clear\n`,
      ':3:',
      LIMIT,
    ],
    [`window-margin: ${LARGE}\nsteps:\n  - uses: transaction-log/clear\n`, ':2:', LIMIT],
    [`park-after: ${HUGE}\n${fleet('')}`, ':2:', LIMIT],
    [fleet(`, analysis: { bake: ${HUGE} }`), ':3:', LIMIT],
    [`steps:\n  - uses: transaction-log/clear\n    timeout: ${HUGE}\n`, ':4:', TIMER],
    [`steps:\n  - uses: monitoring/sessions\n    with: { max-active: 0, wait: { timeout: ${HUGE} } }\n`, ':4:', TIMER],
  ];
  for (const [body, line, limit] of cases) {
    const file = join(dir, 'p.yml');
    writeFileSync(file, `version: 1\n${body}`);
    const r = await runCli(['validate', file]);
    const out = r.stdout + r.stderr;
    const said = `${body.slice(0, 200)}: exit ${r.code}\n${out.slice(0, 2000)}`;
    assert.equal(r.code, 2, said);
    assert.match(out, new RegExp(`p\\.yml${line}\\d+ .*${limit.source}`), said);
    // One finding: the timer's limit is not said again as the longer one.
    assert.match(out, /^1 problem\(s\)/m, said);
    const run = await runCli(['run', file, '--emulator']);
    const ran = `run: exit ${run.code}\n${(run.stdout + run.stderr).slice(0, 2000)}`;
    assert.equal(run.code, 2, ran);
    assert.doesNotMatch(run.stdout, /▶/, ran);
    assert.doesNotMatch(run.stderr, /internal error/, ran);
  }
  // At the limit: valid.
  writeFileSync(
    join(dir, 'ok.yml'),
    'version: 1\nfreezes:\n  x: { cron: "0 22 * * *", duration: 876000h, zone: UTC }\nsteps:\n  - uses: transaction-log/clear\n    expected: 876000h\n',
  );
  const ok = await runCli(['validate', join(dir, 'ok.yml')]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test('every command-line duration of hundreds of digits (or past its limit) is bad arguments, exit 2, naming the flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-duration-flags-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--emulator', '--live', '--out', plan]);
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const fleet = join(dir, 'fleet.yml');
  writeFileSync(
    fleet,
    'version: 1\nvars: { sites: [s1] }\nrollout: { over: site, waves: [rest] }\nsteps:\n  - uses: transaction-log/clear\n    matrix: { site: "${{ vars.sites }}" }\n',
  );
  const store = `file://${mkdtempSync(join(tmpdir(), 'enginectl-duration-store-'))}`;
  const run = '20261204T000000Z-aaaaaaaaaaaa';
  const cases: [string[], RegExp, RegExp, string][] = [
    [['run', file, '--emulator', '--plan', plan, '--plan-max-age', HUGE], /--plan-max-age/, LIMIT, 'BAD_ARGUMENTS'],
    [['run', file, '--emulator', '--plan', plan, '--plan-max-age', LARGE], /--plan-max-age/, LIMIT, 'BAD_ARGUMENTS'],
    [
      ['run', fleet, '--store', store, '--run', run, '--shard', '1/1', '--shard-ttl', HUGE],
      /--shard-ttl/,
      TIMER,
      'BAD_ARGUMENTS',
    ],
    [
      ['run', fleet, '--store', store, '--run', run, '--shard', '1/1', '--shard-wait', HUGE],
      /--shard-wait/,
      TIMER,
      'BAD_ARGUMENTS',
    ],
    [['api', 'GET', '/monitoring/alerts', '--emulator', '--timeout', HUGE], /--timeout/, TIMER, 'BAD_ARGUMENTS'],
    [['api', 'GET', '/monitoring/alerts', '--emulator', '--timeout', '1000h'], /--timeout/, TIMER, 'BAD_ARGUMENTS'],
    [['decide', '--store', store, '--run', run, '--after', HUGE, '--then', 'abort'], /--after/, LIMIT, 'BAD_ARGUMENTS'],
    [['run', file, '--emulator', '--fault', `/api/* latency=${digits(400)}`], /latency=/, TIMER, 'BAD_FAULT'],
  ];
  for (const [args, flag, limit, code] of cases) {
    const r = await runCli(args, { env: { ENGINE_URL: 'http://127.0.0.1:9' } });
    const said = `${args.join(' ').slice(0, 300)}: exit ${r.code}\n${(r.stdout + r.stderr).slice(0, 2000)}`;
    assert.equal(r.code, 2, said);
    assert.match(r.stderr, flag, said);
    assert.match(r.stderr, limit, said);
    assert.match(r.stderr, new RegExp(`code: ${code}`), said);
    assert.doesNotMatch(r.stderr, ECHO, said);
    assert.doesNotMatch(r.stdout, /▶/, said);
  }
});
