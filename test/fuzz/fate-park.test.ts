// A write's fate inside a rollout that parks, proved by the fault schedules and the model of
// test/fuzz/write-fate.test.ts (fate-model.ts): a 2-site rollout (waves [site-001], [site-002];
// `analysis: { bake: 1h }`, longer than the default park-after; `on-failure: decide`) kept in a run
// store parks after its canary; the `run --continue` after the bake sends site-002's write, and
// fast-check draws it: attempts (1-3) × a fault at each × a retry policy × a kill of the continue
// at its last call (the store's journal cut after that send record, the runner lost with its
// disk). Then the operator's follow-up: killed, `run --continue` with each `--in-doubt` (or none);
// parked for a decision, `enginectl decide` (its listing, then --retry, --skip, --exclude,
// --continue or --abort) and `run --continue`; ended, `run --continue` again. The invariants: the
// emulator applied exactly what the model says, never twice without a recorded decision (the
// canary's write never again); every report says "in doubt" exactly when the model does; verify's
// evidence (decide's listing, a continue's --in-doubt verify) says applied only of a write the
// server applied, and never "not-applied" (the step declares no longest:). `npm test` runs a dozen.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import type { Report } from '../../src/report/index.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';
import {
  WRITES,
  afterRun,
  arbitrary,
  cutStoreAfterLastSend,
  faultRules,
  inDoubt,
  loseRunnerDisk,
  type Schedule,
} from './fate-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules: a dozen in npm test, ten times FUZZ_RUNS in npm run fuzz (200). */
const RUNS = SCALE > 0 ? SCALE * 10 : 12;
const HOUR = 3_600_000;
const SITE = 'site-002';

/**
 * What the operator does next. Killed: `run --continue` with that `--in-doubt` (`none`: without
 * one; the rest too, but for `skip`, `retry`, `verify` and `verify-and-retry`). Parked for a
 * decision: `enginectl decide` with it (`none` and the verifies: the listing alone; `go-on` is
 * decide --continue), then `run --continue`. Ended: `run --continue` again.
 */
const FOLLOW_UPS = ['none', 'skip', 'retry', 'verify', 'verify-and-retry', 'exclude', 'go-on', 'abort'] as const;
type ParkSchedule = Schedule<(typeof FOLLOW_UPS)[number]>;
const IN_DOUBT = new Set<string>(['skip', 'retry', 'verify', 'verify-and-retry']);

const stepIn = (report: Report | undefined) => report?.steps.find((s) => s.name === `Write ${SITE}`);

async function check(t: TestContext, s: ParkSchedule): Promise<void> {
  const c = WRITES[s.step % WRITES.length]!;
  const write = `  - id: write
    name: "Write \${{ matrix.site }}"
    uses: ${c.uses}
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }
    with: ${c.with}`;
  const f = await parkFleet(
    t,
    2,
    '  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide\n  analysis: { bake: 1h }',
    '',
    '',
    { write },
  );
  const applied = (site: string) =>
    f.sites
      .started()
      .get(site)
      ?.requests.filter((r) => r.applied && r.method === c.method && r.path === c.path).length ?? 0;
  const where = `park ${c.uses} ${JSON.stringify(s)}`;
  const said = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

  // A write its step fails on once applied would fail the canary too: there the API answers as the step expects (202).
  if (c.failsOnApplied) f.sites.faults.add({ method: c.method, path: c.path, site: 'site-001', status: 202, times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, `${where}: parked for the bake after the canary (${said(first)})`);
  const id = runIdOf(first.stdout)!;
  // The canary's write goes as the API answers; it is never sent again.
  const canary = applied('site-001');
  assert.equal(first.report?.parked?.for, 'bake', `${where}: parked for the bake (${said(first)})`);
  assert.equal(applied(SITE), 0, `${where}: site-002 waits for the bake`);
  for (const rule of faultRules(c, s, SITE)) f.sites.faults.add(rule);
  await f.clock.sleep(HOUR + 60_000, new AbortController().signal);

  // The continue after the bake sends site-002's write under the schedule.
  const cont = await f.run('--continue', id);
  const { model, doubt, done, resent } = afterRun(c, s);
  assert.equal(applied(SITE), model.applied, `${where}: the server applied what the model says (${said(cont)})`);
  assert.equal(
    stepIn(cont.report)?.inDoubt != null,
    inDoubt(model.sent, model.success),
    `${where}: the continue's report says in doubt exactly when the model does (${said(cont)})`,
  );
  assert.equal(
    cont.code,
    model.success ? 0 : PARKED,
    `${where}: ended, or parked for a decision on site-002 (${said(cont)})`,
  );
  f.sites.faults.clear();
  if (s.killed) {
    cutStoreAfterLastSend(f.storeUrl.slice('file://'.length), id);
    loseRunnerDisk(id);
  }
  const before = applied(SITE);
  const judge = (r: { stdout: string; stderr: string }) => {
    // decide lists it within what the run waits for ("...; verify: NAME (CALL): VERDICT: ..."), a continue on a line of its own.
    for (const [, verdict] of said(r).matchAll(/verify: "Write site-002"(?: \([^)]*\))?: ([a-z-]+): /g)) {
      if (verdict === 'applied')
        assert.ok(model.applied > 0, `${where}: verify says applied of a write not applied (${said(r)})`);
      assert.notEqual(verdict, 'not-applied', `${where}: not applied with no longest: declared (${said(r)})`);
    }
    return /verify: "Write site-002"(?: \([^)]*\))?: applied: /.test(said(r));
  };

  let sends: number;
  if (s.killed) {
    // Still parked at the bake, whose time has passed: the continue goes on, its call in doubt decided first.
    const decision = IN_DOUBT.has(s.followUp) ? s.followUp : undefined;
    const r = await f.run('--continue', id, ...(decision ? ['--in-doubt', decision] : []));
    judge(r);
    if (doubt && !decision) assert.equal(r.code, 2, `${where}: a continue refuses while in doubt (${said(r)})`);
    assert.ok(doubt, `${where}: a call cut short is in doubt`);
    sends = resent(decision === 'retry');
    assert.equal(applied(SITE) - before, sends, `${where}: the continue applies what the model says (${said(r)})`);
  } else if (done) {
    const r = await f.run('--continue', id);
    assert.equal(r.code, 2, `${where}: an ended run is not parked (${said(r)})`);
    assert.equal(applied(SITE) - before, 0, `${where}: nothing sent (${said(r)})`);
  } else {
    const listed = await f.decide(id);
    assert.equal(listed.code, 0, `${where}: ${said(listed)}`);
    const verifiedApplied = judge(listed);
    const reason = ['--reason', `fate: ${s.followUp}`];
    const args =
      s.followUp === 'retry'
        ? ['--retry', SITE, '--accept-cannot-tell', ...reason]
        : s.followUp === 'skip' || s.followUp === 'exclude'
          ? [`--${s.followUp}`, SITE, ...reason]
          : s.followUp === 'go-on'
            ? ['--continue', ...reason]
            : s.followUp === 'abort'
              ? ['--abort', ...reason]
              : undefined;
    let retried = false;
    if (args) {
      const decided = await f.decide(id, ...args);
      if (s.followUp === 'retry' && verifiedApplied)
        assert.equal(decided.code, 2, `${where}: a retry of a call verify read applied is refused (${said(decided)})`);
      else assert.equal(decided.code, 0, `${where}: ${said(decided)}`);
      retried = s.followUp === 'retry' && decided.code === 0;
    }
    const r = await f.run('--continue', id);
    if (!args || (s.followUp === 'retry' && !retried))
      assert.equal(r.code, PARKED, `${where}: undecided, parked again at once (${said(r)})`);
    // Only a recorded --retry sends it again: the step runs again as a first time, under its retry policy.
    sends = retried ? resent(true) : 0;
    assert.equal(applied(SITE) - before, sends, `${where}: the continue applies what the model says (${said(r)})`);
  }
  // Once more: nothing sent again, the canary's write never.
  const then = applied(SITE);
  const again = await f.run('--continue', id);
  assert.equal(applied(SITE) - then, 0, `${where}: continued once more (${said(again)})`);
  assert.equal(applied('site-001'), canary, `${where}: the canary's write is not sent again`);
}

/** Schedules kept as they were found: each runs first, every time. */
const REGRESSIONS: ParkSchedule[] = [];

test(
  'a parked rollout: a write its continue sends is applied at most once without a recorded decision, continued after a kill with each --in-doubt, decided (retry, skip, exclude, continue, abort) and continued, and every report says in doubt exactly when the model does',
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of REGRESSIONS) await check(t, s);
    await fc.assert(
      fc.asyncProperty(arbitrary(FOLLOW_UPS), (s) => check(t, s)),
      { numRuns: RUNS, includeErrorInReport: true },
    );
  },
);
