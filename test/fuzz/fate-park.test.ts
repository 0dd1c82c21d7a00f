// A write's fate inside a rollout that parks, proved by the fault schedules and the model of
// test/fuzz/write-fate.test.ts (fate-model.ts): a 2-site rollout (waves [site-001], [site-002];
// `analysis: { bake: 1h }`, longer than the default park-after; `on-failure: decide`) kept in a run
// store. fast-check draws the write (its step declaring `longest: 10m`) where it meets the
// schedule: the canary's, in the first run (which parks for the bake, or for a decision), or
// site-002's, in the `run --continue` after the bake; attempts (1-3) × a fault at each × a retry
// policy × a kill of that run at its last call (the store's journal cut after that send record,
// the runner lost with its disk, its hold on the run left until an operator releases it) × the
// follow-up within the step's longest: or past it. Then the
// operator's: killed, `run --continue` (a run killed before it parked is refused, and resumed) with
// each `--in-doubt` (or none), or two at once; parked for a decision, `enginectl decide` (its
// listing, then --retry, --skip, --exclude, --continue or --abort) and `run --continue` (two at
// once after a retry); parked for the bake, continued within and after it; ended, continued again.
// Each going on is the CLI's or the GitHub Action's entry (inputs `continue:`, `journal:`,
// `in-doubt:`). The invariants: the emulator applied exactly what the model says, never twice
// without a recorded decision (the canary's write never again); every report says "in doubt"
// exactly when the model does; verify's evidence (decide's listing, --in-doubt verify) says
// applied only of a write the server applied, not applied only of one it did not and past
// longest: (where a write the API shows is then proved so). `npm test` runs a dozen schedules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { actionDef } from '../../src/action/definitions.ts';
import { realClock } from '../../src/app/clock.ts';
import { ownLeaseName } from '../../src/app/stored-run-held.ts';
import type { Report } from '../../src/report/index.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease } from '../../src/store/lease.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';
import {
  PROVED_NOT_APPLIED,
  VERIFIABLE,
  WRITES,
  afterRun,
  arbitrary,
  cutStoreAfterLastSend,
  faultRules,
  inDoubt,
  loseRunnerDisk,
  verdictsIn,
  writeOf,
  type Schedule,
} from './fate-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules: a dozen in npm test, ten times FUZZ_RUNS in npm run fuzz (200). */
const RUNS = SCALE > 0 ? SCALE * 10 : 12;
const HOUR = 3_600_000;
const ROOT = actionDef('enginectl');

/**
 * What the operator does next (`verify-store`: `enginectl verify --store` first, then as `none`).
 * Killed: `run --continue` (or `--resume`) with that `--in-doubt` (`none`: without one; the rest
 * too, but for `skip`, `retry`, `verify` and `verify-and-retry`; `two-retries`: two at once with
 * `retry`). Parked for a decision: `enginectl decide` with it (`none` and the verifies: the listing
 * alone; `go-on` is decide --continue; `after-*` is --after 4h --then continue or abort, its time
 * let pass), then `run --continue` (two at once after `two-retries`' --retry). Parked for the bake:
 * continued within it and after it. Ended: `run --continue` again.
 */
const FOLLOW_UPS = [
  'none',
  'skip',
  'retry',
  'verify',
  'verify-and-retry',
  'exclude',
  'go-on',
  'abort',
  'two-retries',
  'verify-store',
  'after-continue',
  'after-abort',
] as const;
type ParkSchedule = Schedule<(typeof FOLLOW_UPS)[number]> & {
  /** The follow-up runs past the step's `longest: 10m` (counted from the latest the call can have left), else within it. */
  past: boolean;
  /** Who goes on with the parked run: `run --continue`, or the GitHub Action's entry with its inputs `continue:` and `in-doubt:`. */
  via: 'cli' | 'action';
  /** Where the write meets the schedule: the canary (wave 1, in the first run), or site-002 (wave 2, in the continue after the bake). */
  wave: 1 | 2;
};
const IN_DOUBT = new Set<string>(['skip', 'retry', 'verify', 'verify-and-retry']);

async function check(t: TestContext, s: ParkSchedule): Promise<void> {
  const c = writeOf(s);
  const SITE = s.wave === 1 ? 'site-001' : 'site-002';
  const stepIn = (report: Report | undefined) => report?.steps.find((r) => r.name === `Write ${SITE}`);
  const write = `  - id: write
    name: "Write \${{ matrix.site }}"
    uses: ${c.uses}
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    longest: 10m
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
  const pipeline = readFileSync(f.file, 'utf8');
  let id = '';
  /**
   * The run gone on with (`resume`: resumed, as a run killed before it parked is), its in-doubt
   * decision given: its exit code (75 for the action's outcome parked), what it said, its report.
   */
  const goOn = async (inDoubt?: string, how: 'continue' | 'resume' = 'continue') => {
    if (s.via === 'cli') return f.run(`--${how}`, id, ...(inDoubt ? ['--in-doubt', inDoubt] : []));
    const job = await runActionInProcess(ROOT, {
      files: { 'fleet.yml': pipeline },
      inputs: {
        pipeline: 'fleet.yml',
        store: f.storeUrl,
        ...(how === 'continue' ? { continue: id } : { journal: id }),
        ...(inDoubt ? { 'in-doubt': inDoubt } : {}),
      },
      env: f.env,
      clock: f.clock,
    });
    const report = job.outputs.report ? (JSON.parse(readFileSync(job.outputs.report, 'utf8')) as Report) : undefined;
    return {
      code: job.outputs.outcome === 'parked' ? PARKED : job.code,
      stdout: job.log.join('\n'),
      stderr: [...job.failed, ...job.errors.map((e) => e.message)].join('\n'),
      report,
    };
  };

  let cont: Awaited<ReturnType<typeof goOn>>;
  let canary = 0;
  if (s.wave === 2) {
    // A write its step fails on once applied would fail the canary too: there the API answers as the step expects (202).
    if (c.failsOnApplied)
      f.sites.faults.add({ method: c.method, path: c.path, site: 'site-001', status: 202, times: 1 });
    const first = await f.run();
    assert.equal(first.code, PARKED, `${where}: parked for the bake after the canary (${said(first)})`);
    id = runIdOf(first.stdout)!;
    // The canary's write goes as the API answers; it is never sent again.
    canary = applied('site-001');
    assert.equal(first.report?.parked?.for, 'bake', `${where}: parked for the bake (${said(first)})`);
    assert.equal(applied(SITE), 0, `${where}: site-002 waits for the bake`);
    for (const rule of faultRules(c, s, SITE)) f.sites.faults.add(rule);
    await f.clock.sleep(HOUR + 60_000, new AbortController().signal);
    // The continue after the bake sends site-002's write under the schedule.
    cont = await goOn();
  } else {
    // The first run sends the canary's write under the schedule: it parks for the bake, or for a decision.
    for (const rule of faultRules(c, s, SITE)) f.sites.faults.add(rule);
    cont = await f.run();
    id = runIdOf(cont.stdout)!;
  }
  const { model, doubt, done, resent } = afterRun(c, s);
  assert.equal(applied(SITE), model.applied, `${where}: the server applied what the model says (${said(cont)})`);
  assert.equal(
    stepIn(cont.report)?.inDoubt != null,
    inDoubt(model.sent, model.success),
    `${where}: the continue's report says in doubt exactly when the model does (${said(cont)})`,
  );
  assert.equal(
    cont.code,
    model.success && s.wave === 2 ? 0 : PARKED,
    `${where}: ended, or parked for the bake or a decision on ${SITE} (${said(cont)})`,
  );
  f.sites.faults.clear();
  const how = s.wave === 2 ? 'continue' : 'resume';
  if (s.killed) {
    cutStoreAfterLastSend(f.storeUrl.slice('file://'.length), id);
    loseRunnerDisk(id);
    // The killed runner released nothing: its hold on the run stands for its 2-minute ttl, and until
    // then the run is refused to anyone, decision or not, nothing sent; the operator who knows it is
    // gone releases it. Taken on the clock the next runner reads leases on: the CLI's run, the wall
    // clock; the action's, its own (both the real one but under a test's simulated clock).
    await acquireLease(new DirectoryStore(f.storeUrl), ownLeaseName(id), {
      holder: { runId: id, actor: 'night-job', host: 'runner-7' },
      ttlMs: 120_000,
      waitMs: 0,
      clock: s.via === 'cli' ? realClock() : f.clock,
      verifyTakeover: async () => ({ evidence: [] }),
    });
    const then = applied(SITE);
    const held = await goOn('retry', how);
    assert.equal(held.code, 2, `${where}: held by the killed runner (${said(held)})`);
    assert.match(said(held), /is held by another runner of it/, `${where}: ${said(held)}`);
    assert.equal(applied(SITE), then, `${where}: nothing sent while held (${said(held)})`);
    const released = await f.cli(['lease', 'release', '--store', f.storeUrl, ownLeaseName(id), '--reason', 'killed']);
    assert.equal(released.code, 0, `${where}: ${said(released)}`);
  }
  // What the run left, as `enginectl report --store` reads it: in doubt exactly when the model says.
  const stored = await f.cli(['report', '--store', f.storeUrl, '--run', id, '--report-json', join(f.dir, 'left.json')]);
  assert.notEqual(stored.code, 2, `${where}: ${said(stored)}`);
  assert.equal(
    stepIn(JSON.parse(readFileSync(join(f.dir, 'left.json'), 'utf8')) as Report)?.inDoubt != null,
    doubt,
    `${where}: report --store says in doubt exactly when the model does (${said(stored)})`,
  );
  await f.clock.sleep((s.past ? 13 : 5) * 60_000, new AbortController().signal);
  const before = applied(SITE);
  // Past longest:, a write the API shows that the server never applied is proved not applied; within it, cannot tell.
  const provable = PROVED_NOT_APPLIED.has(c.uses) && !c.failsOnApplied && model.applied === 0;
  /** Verify's verdict of the write's call, where the output has one: checked against the model. */
  const judge = (
    r: { stdout: string; stderr: string },
    // decide lists it within what the run waits for ("...; verify: NAME (CALL): VERDICT: ..."), a continue on a line of its own.
    verdicts = [...said(r).matchAll(new RegExp(`verify: "Write ${SITE}"(?: \\([^)]*\\))?: ([a-z-]+): `, 'g'))].map(
      (m) => m[1]!,
    ),
  ) => {
    for (const verdict of verdicts) {
      if (verdict === 'applied')
        assert.ok(model.applied > 0, `${where}: verify says applied of a write not applied (${said(r)})`);
      if (verdict === 'not-applied')
        assert.ok(model.applied === 0 && s.past, `${where}: verify says not applied unproved (${said(r)})`);
      if (provable) assert.equal(verdict, s.past ? 'not-applied' : 'cannot-tell', `${where}: ${said(r)}`);
    }
    return verdicts[0];
  };

  if (s.followUp === 'verify-store') {
    // verify --store of the run as it stands (no runner holds it), before the operator goes on.
    const r = await f.cli(['verify', '--store', f.storeUrl, '--run', id, '--pipeline', f.file]);
    const verdicts = verdictsIn(said(r));
    assert.equal(verdicts.length, doubt ? 1 : 0, `${where}: verify --store reads the call in doubt (${said(r)})`);
    judge(r, verdicts);
    assert.equal(applied(SITE) - before, 0, `${where}: verify sends no write (${said(r)})`);
  }
  if (s.killed) {
    // Wave 2: still parked at the bake, whose time has passed: the continue goes on, its call in
    // doubt decided first. Wave 1: the run never parked: a continue is refused, it is resumed.
    assert.ok(doubt, `${where}: a call cut short is in doubt`);
    if (s.wave === 1) {
      const refused = await goOn();
      assert.equal(refused.code, 2, `${where}: a run killed before it parked is not parked (${said(refused)})`);
      assert.match(said(refused), /its last run did not park/, `${where}: ${said(refused)}`);
    }
    if (s.followUp === 'two-retries') {
      const both = await Promise.all([0, 1].map(() => goOn('retry', how)));
      assert.equal(
        applied(SITE) - before,
        resent(true),
        `${where}: two continues at once send as one (${both.map(said)})`,
      );
    } else {
      const decision = IN_DOUBT.has(s.followUp) ? s.followUp : undefined;
      const r = await goOn(decision, how);
      const verdict = judge(r);
      if (!decision) assert.equal(r.code, 2, `${where}: a continue refuses while in doubt (${said(r)})`);
      // Verify's applied settles it; its not applied sends it again on verify-and-retry's word; else only a retry does.
      const retry = decision === 'retry' || (decision === 'verify-and-retry' && verdict === 'not-applied');
      const sends = verdict === 'applied' ? 0 : resent(retry);
      assert.equal(applied(SITE) - before, sends, `${where}: the continue applies what the model says (${said(r)})`);
    }
  } else if (done && s.wave === 2) {
    const r = await goOn();
    assert.equal(r.code, 2, `${where}: an ended run is not parked (${said(r)})`);
    assert.equal(applied(SITE) - before, 0, `${where}: nothing sent (${said(r)})`);
  } else if (done) {
    // The canary's write done, the run parked for the bake: parked again within it, ended after it.
    const early = await goOn();
    assert.equal(early.code, PARKED, `${where}: the bake is not over (${said(early)})`);
    await f.clock.sleep(HOUR, new AbortController().signal);
    const r = await goOn();
    assert.equal(r.code, 0, `${where}: the rollout ends after the bake (${said(r)})`);
    assert.equal(applied(SITE) - before, 0, `${where}: the canary's write is not sent again (${said(r)})`);
  } else {
    // The action's continue named its workspace's fleet.yml: decide, from elsewhere, is given the pipeline.
    const listed = await f.decide(id, '--pipeline', f.file);
    assert.equal(listed.code, 0, `${where}: ${said(listed)}`);
    const verdict = judge(listed);
    if (doubt && VERIFIABLE.has(c.uses) && !c.failsOnApplied)
      assert.ok(verdict, `${where}: decide lists verify's verdict of the call in doubt (${said(listed)})`);
    const reason = ['--reason', `fate: ${s.followUp}`];
    const args =
      s.followUp === 'retry' || s.followUp === 'two-retries'
        ? ['--retry', SITE, ...(verdict === 'cannot-tell' ? ['--accept-cannot-tell'] : []), ...reason]
        : s.followUp === 'skip' || s.followUp === 'exclude'
          ? [`--${s.followUp}`, SITE, ...reason]
          : s.followUp === 'go-on'
            ? ['--continue', ...reason]
            : s.followUp === 'abort'
              ? ['--abort', ...reason]
              : s.followUp === 'after-continue' || s.followUp === 'after-abort'
                ? ['--after', '4h', '--then', s.followUp.slice('after-'.length), ...reason]
                : undefined;
    let retried = false;
    if (args) {
      const decided = await f.decide(id, '--pipeline', f.file, ...args);
      if (args[0] === '--retry' && verdict === 'applied')
        assert.equal(decided.code, 2, `${where}: a retry of a call verify read applied is refused (${said(decided)})`);
      else assert.equal(decided.code, 0, `${where}: ${said(decided)}`);
      retried = args[0] === '--retry' && decided.code === 0;
    }
    if (args?.[0] === '--after') {
      // Before its time the timeout's decision is not taken: parked again at once, nothing sent.
      const early = await goOn();
      assert.equal(early.code, PARKED, `${where}: the timeout has not passed (${said(early)})`);
      await f.clock.sleep(5 * HOUR, new AbortController().signal);
    }
    const runs = await Promise.all((s.followUp === 'two-retries' ? [0, 1] : [0]).map(() => goOn()));
    // Undecided, it parks again at once; of two continues at once, the one that finds the other holding the run is refused.
    if (!args || (args[0] === '--retry' && !retried))
      for (const r of runs)
        assert.ok(
          r.code === PARKED || (runs.length > 1 && /is held by another runner of it/.test(said(r))),
          `${where}: undecided, parked again at once (${said(r)})`,
        );
    // Only a recorded --retry sends it again: the step runs again as a first time, under its retry policy.
    const sends = retried ? resent(true) : 0;
    assert.equal(
      applied(SITE) - before,
      sends,
      `${where}: the continue applies what the model says (${runs.map(said)})`,
    );
  }
  // Once more: nothing sent again, the canary's write never.
  const then = applied(SITE);
  const again = await goOn();
  assert.equal(applied(SITE) - then, 0, `${where}: continued once more (${said(again)})`);
  if (s.wave === 2) assert.equal(applied('site-001'), canary, `${where}: the canary's write is not sent again`);
}

/** Schedules kept as they were found: each runs first, every time. */
const REGRESSIONS: ParkSchedule[] = [
  // Found by npm run fuzz (the test's): of two continues at once, one finds the other holding the run.
  {
    step: WRITES.findIndex((c) => c.uses === 'licensing/add'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['mid-body', 'none', 'none'],
    killed: false,
    followUp: 'two-retries',
    past: true,
    via: 'cli',
    wave: 2,
  },
  // Found by npm run fuzz (the model's): a system update with no source database, at a site whose
  // other databases' Engines disagree, is cannot tell past longest: too; writeOf names its source.
  {
    step: WRITES.findIndex((c) => c.uses === 'update/system'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['api-5xx', 'none', 'none'],
    killed: false,
    followUp: 'none',
    past: true,
    via: 'cli',
    wave: 2,
  },
  // The same through the action (its failure says the refusal without the CLI's "code:" line).
  {
    step: WRITES.findIndex((c) => c.uses === 'licensing/add'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['gateway-after', 'none', 'none'],
    killed: false,
    followUp: 'two-retries',
    past: false,
    via: 'action',
    wave: 2,
  },
  // Found by this test (the test's, each): the action's continue names its workspace's fleet.yml,
  // which decide run from elsewhere is given (--pipeline); the action says a run that did not park
  // without the CLI's code; it reads a lease's lapse on its own clock (the test's simulated one),
  // where the CLI's run reads the wall clock.
  {
    step: WRITES.findIndex((c) => c.uses === 'transaction-log/clear'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['reset-after', 'none', 'none'],
    killed: false,
    followUp: 'none',
    past: false,
    via: 'action',
    wave: 2,
  },
  {
    step: WRITES.findIndex((c) => c.uses === 'transaction-log/clear'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: true,
    followUp: 'none',
    past: false,
    via: 'action',
    wave: 1,
  },
  {
    step: WRITES.findIndex((c) => c.uses === 'transaction-log/clear'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: true,
    followUp: 'none',
    past: false,
    via: 'action',
    wave: 2,
  },
];

test(
  'a parked rollout: a write its first run or its continue sends is applied at most once without a recorded decision, continued (or resumed) after a kill with each --in-doubt, decided (retry, skip, exclude, continue, abort) and continued, through the CLI or the Action, and every report says in doubt exactly when the model does',
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of REGRESSIONS) await check(t, s);
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(
            arbitrary(FOLLOW_UPS),
            fc.boolean(),
            fc.constantFrom('cli' as const, 'action' as const),
            fc.constantFrom(1 as const, 2 as const),
          )
          .map(([s, past, via, wave]) => ({ ...s, past, via, wave })),
        (s) => check(t, s),
      ),
      { numRuns: RUNS, includeErrorInReport: true },
    );
  },
);
