// A write's fate when its step declares `longest:` (the longest its write can take at the server),
// proved by the fault schedules and the model of test/fuzz/write-fate.test.ts (fate-model.ts):
// fast-check draws a write, attempts (1-3) × a fault at each × a retry policy × a kill of the run at
// its last call, the step's `longest: 10m`, and a follow-up on the run's journal (verify, resume
// with --in-doubt verify or verify-and-retry) either within that bound on the simulated clock the
// emulator reads too, or past it. The invariants: verify says "applied" only of a write the server
// applied; "not-applied" only of one it did not apply, and only past `longest:`; past it, a write
// the API can show (classes, a system update) that the server never applied IS proved not
// applied, and verify-and-retry then sends it exactly once; within it, such a write is cannot-tell
// and nothing is sent (a license added or removed is never proved not applied: a license has no id,
// so the one still there may have been removed and added again, the one not there added and
// removed). `npm test` runs a dozen schedules; `npm run fuzz` more.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import {
  ENV,
  HEAD,
  PROVED_NOT_APPLIED,
  VERIFIABLE,
  WRITES,
  afterRun,
  arbitrary,
  cutAfterLastSend,
  faultRules,
  inDoubt,
  stepOf,
  verdictsIn,
  writeOf,
  type Schedule,
} from './fate-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules: a dozen in npm test, ten times FUZZ_RUNS in npm run fuzz (200). */
const RUNS = SCALE > 0 ? SCALE * 10 : 12;
const MINUTE = 60_000;

const FOLLOW_UPS = ['verify', 'resume-verify', 'resume-verify-and-retry'] as const;
type LongestSchedule = Schedule<(typeof FOLLOW_UPS)[number]> & {
  /** The follow-up runs past the step's `longest:` (counted from the latest the call can have left), else within it. */
  past: boolean;
};

/** Their places in the model's writes. */
const SHOWN = WRITES.flatMap((c, i) => (VERIFIABLE.has(c.uses) ? [i] : []));

async function check(t: TestContext, s: LongestSchedule): Promise<void> {
  const c = writeOf(s);
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-longest-'));
  const file = join(dir, 'fate.yml');
  writeFileSync(
    file,
    `${HEAD}  - uses: ${c.uses}\n    with: ${c.with}\n    longest: 10m\n    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }\n`,
  );
  for (const rule of faultRules(c, s)) emulator.faults.add(rule);
  const applied = () => emulator.requests.filter((r) => r.applied && r.method === c.method && r.path === c.path).length;
  const env = { ...ENV, ENGINE_URL: url };
  const journal = join(dir, 'run.journal.jsonl');
  const where = `longest ${c.uses} ${JSON.stringify(s)}`;
  const cli = (args: string[]) => runCli(args, { env, clock });

  const run = await cli(['run', file, '--journal', journal, '--report-json', join(dir, 'run.json')]);
  const { model, doubt, resent, once } = afterRun(c, s);
  assert.equal(applied(), model.applied, `${where}: the server applied what the model says (${run.stdout})`);
  assert.equal(
    stepOf(join(dir, 'run.json')).inDoubt !== null,
    inDoubt(model.sent, model.success),
    `${where}: the run's report says in doubt exactly when the model does`,
  );
  emulator.faults.clear();
  const from = s.killed ? cutAfterLastSend(journal) : journal;
  // Past: 13 minutes: monitoring (refreshed every 2 minutes) then holds a report past the 10 minutes
  // of longest: from the latest the call can have left (30 s after its record); within: 5.
  await clock.sleep((s.past ? 13 : 5) * MINUTE, new AbortController().signal);
  const before = applied();

  // What verify can say of the call in doubt: applied only of a write applied; not applied only of
  // one not applied, and only past longest:; past it, a write the API shows and the server never
  // applied is proved not applied. (A write the journal holds answered 2xx is the operator's.)
  const provable = PROVED_NOT_APPLIED.has(c.uses) && !c.failsOnApplied && model.applied === 0;
  const expected = !doubt ? undefined : provable && s.past ? 'not-applied' : undefined;
  const judge = (said: string) => {
    const verdicts = verdictsIn(said);
    if (!doubt) return assert.deepEqual(verdicts, [], `${where}: nothing in doubt, nothing verified (${said})`);
    assert.equal(verdicts.length, 1, `${where}: one call in doubt, one verdict (${said})`);
    const [verdict] = verdicts;
    if (verdict === 'applied')
      assert.ok(model.applied > 0, `${where}: verify says applied of a write not applied (${said})`);
    if (verdict === 'not-applied') {
      assert.equal(model.applied, 0, `${where}: verify says not applied of a write applied (${said})`);
      assert.ok(s.past, `${where}: verify says not applied within the step's longest: (${said})`);
    }
    if (expected) assert.equal(verdict, expected, `${where}: past longest:, verify proves it not applied (${said})`);
    if (provable && !s.past) assert.equal(verdict, 'cannot-tell', `${where}: within longest: (${said})`);
    return verdict;
  };

  if (s.followUp === 'verify') {
    const r = await cli(['verify', from]);
    const said = r.stdout + r.stderr;
    judge(said);
    assert.equal(applied() - before, 0, `${where}: verify sends no write (${said})`);
    return;
  }
  const retry = s.followUp === 'resume-verify-and-retry';
  const r = await cli(['run', file, '--resume', from, '--in-doubt', retry ? 'verify-and-retry' : 'verify']);
  const said = r.stdout + r.stderr;
  const verdict = judge(said);
  // Applied: not sent again; not applied: sent again once on verify-and-retry's word; else refused, nothing sent.
  const sends = !doubt ? resent(false) : verdict === 'applied' || once ? 0 : verdict === 'not-applied' && retry ? 1 : 0;
  if (doubt && sends === 0 && verdict !== 'applied')
    assert.equal(r.code, 2, `${where}: a resume verify cannot settle is refused (${said})`);
  assert.equal(applied() - before, sends, `${where}: applied again (${said})`);
  // Resumed once more, without a decision: what was verified, carried or sent is not sent again.
  const then = applied();
  const again = await cli(['run', file, '--resume', from]);
  assert.equal(applied() - then, 0, `${where}: resumed once more (${again.stdout}${again.stderr})`);
}

/** Schedules kept as they were found: each runs first, every time. */
const REGRESSIONS: LongestSchedule[] = [
  // Found by this test: enginectl verify counted "since the call" on Date.now, not on the run's
  // clock: 11 minutes on, past longest:, it said "117ms after the call" and cannot tell
  // (test/recovery/verify-run-clock.test.ts).
  {
    step: WRITES.findIndex((c) => c.uses === 'classes/update'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['reset-before', 'none', 'none'],
    killed: false,
    followUp: 'verify',
    past: true,
  },
  {
    step: WRITES.findIndex((c) => c.uses === 'licensing/add'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['api-5xx', 'none', 'none'],
    killed: false,
    followUp: 'verify',
    past: true,
  },
];

test(
  "a step's longest:: verify proves a write not applied only past it and only of a write the server did not apply, and verify-and-retry then sends it once",
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of REGRESSIONS) await check(t, s);
    await fc.assert(
      fc.asyncProperty(
        // The writes the API can show: the others are cannot-tell whatever the time (fate-paths.test.ts).
        fc
          .tuple(arbitrary(FOLLOW_UPS), fc.constantFrom(...SHOWN), fc.boolean())
          .map(([s, step, past]) => ({ ...s, step, past })),
        (s) => check(t, s),
      ),
      { numRuns: RUNS, includeErrorInReport: true },
    );
  },
);
