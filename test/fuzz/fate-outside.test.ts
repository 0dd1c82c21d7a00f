// A write's fate when the world changes beside the run: the fault schedules of
// test/fuzz/fate-longest.test.ts (a write, attempts 1-3 × a fault at each × a retry policy × a kill
// at its last call, the step's `longest: 10m`), each left in doubt, then one or two changes someone
// else makes to the write's target between the cut and the verify (outside-model.ts: an entity
// renamed, deleted and created again under its name or key, another under its name, updated again,
// written back, the same write; a license added, removed, renewed, put back; the same system
// update, an Engine stopped or started), then, past `longest:`, `verify`, or a resume with
// --in-doubt verify or verify-and-retry. The invariants, judged against the emulator's request log
// (what the server applied of the run's write; the changes are not in it) and its state:
//   - verify says "applied" only of a write the server applied, or whose effect the world holds so
//     that sending it again changes nothing (someone else's same update, delete, license), never of
//     a create the server did not apply (sent again, it creates another);
//   - "not applied" only of a write the server did not apply;
//   - verify-and-retry sends again exactly what verify proved not applied, once, and nothing else;
//     verify sends nothing; a resume that cannot settle is refused; resumed once more, nothing.
// Deterministic per seed: FUZZ_SEED=N (and FUZZ_PATH from fast-check's report) replays one.
// `npm test` runs a dozen schedules; `npm run fuzz` ten times FUZZ_RUNS. A counterexample is kept
// in REGRESSIONS, with a test of its own in test/recovery/outside-changes.test.ts; one of a change
// no read can tell from the run's write (KNOWN: docs/reliability.md, "What no read can tell") is
// said as a diagnostic, not failed on.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { simulatedClock } from '../../src/app/clock.ts';
import { Emulator } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { ENV, FAULTS, HEAD, afterRun, cutAfterLastSend, faultRules, verdictsIn, type Fault } from './fate-model.ts';
import { OUTSIDE_WRITES, startOf, type OutsideWrite } from './outside-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules: a dozen in npm test, ten times FUZZ_RUNS in npm run fuzz (200). */
const RUNS = SCALE > 0 ? SCALE * 10 : 12;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
/** fast-check's path of a counterexample (its report's `path`), with FUZZ_SEED: replays it alone. */
const PATH = process.env.FUZZ_PATH;
const MINUTE = 60_000;

const FOLLOW_UPS = ['verify', 'resume-verify', 'resume-verify-and-retry'] as const;
interface OutsideSchedule {
  write: number;
  attempts: number;
  inDoubt: 'stop' | 'retry';
  faults: Fault[];
  killed: boolean;
  /** Someone else's changes, in order (indices into the write's changes). */
  changes: number[];
  followUp: (typeof FOLLOW_UPS)[number];
}

const writeOf = (s: OutsideSchedule) => OUTSIDE_WRITES[s.write % OUTSIDE_WRITES.length]!;
const changesOf = (s: OutsideSchedule) => {
  const names = Object.keys(writeOf(s).changes);
  return s.changes.map((i) => names[i % names.length]!);
};
const modelOf = (s: OutsideSchedule) => afterRun(writeOf(s), { ...s, step: 0, followUp: undefined });

async function check(t: TestContext, s: OutsideSchedule): Promise<void> {
  const w = writeOf(s);
  const changes = changesOf(s);
  // A clock moved only by the run's and the test's waits: the same schedule reads the same times.
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const start = startOf(emulator);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-outside-'));
  const file = join(dir, 'fate.yml');
  writeFileSync(
    file,
    `${HEAD}${w.before ?? ''}  - id: write\n    uses: ${w.uses}\n    with: ${w.with}\n    longest: 10m\n    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }\n`,
  );
  for (const rule of faultRules(w, s)) emulator.faults.add(rule);
  /** What the server applied of the run's write: the changes beside it go through no request of the log. */
  const applied = () => emulator.requests.filter((r) => r.applied && r.method === w.method && r.path === w.path).length;
  const env = { ...ENV, ENGINE_URL: url };
  const journal = join(dir, 'run.journal.jsonl');
  const where = `outside ${w.name} then ${changes.join(' + ')} ${JSON.stringify(s)} (FUZZ_SEED=${SEED})`;
  const cli = (args: string[]) => runCli(args, { env, clock });

  const run = await cli(['run', file, '--journal', journal]);
  const { model, doubt } = modelOf(s);
  assert.ok(doubt, `${where}: the schedules drawn leave the write in doubt`);
  assert.equal(applied(), model.applied, `${where}: the server applied what the model says (${run.stdout})`);
  emulator.faults.clear();
  const from = s.killed ? cutAfterLastSend(journal) : journal;

  // Someone else changes the target a minute after the cut; the follow-up comes 13 minutes after
  // it, past the step's longest: (and monitoring's refresh) from the latest the call can have left.
  await clock.sleep(MINUTE, new AbortController().signal);
  for (const change of changes) w.changes[change]!(emulator, start);
  await clock.sleep(12 * MINUTE, new AbortController().signal);
  const truth = { applied: applied(), effect: w.effect?.(emulator.state) ?? false };
  const told = `the server applied the run's write ${truth.applied} time(s); the world ${truth.effect ? 'holds' : 'does not hold'} its effect`;

  /** The verdict verify printed, judged; a known defect's (KNOWN) is said, not failed on, and ends the check. */
  const judge = (said: string): { verdict: string; known?: true } => {
    const verdicts = verdictsIn(said);
    assert.equal(verdicts.length, 1, `${where}: one call in doubt, one verdict (${said})`);
    const verdict = verdicts[0]!;
    const wrong =
      (verdict === 'applied' && truth.applied === 0 && !truth.effect) ||
      (verdict === 'not-applied' && truth.applied > 0);
    const known = wrong ? KNOWN.find((k) => k.matches(w, changes, verdict, truth)) : undefined;
    if (known) {
      t.diagnostic(`known defect (${known.see}): ${where}`);
      return { verdict, known: true };
    }
    if (verdict === 'applied')
      assert.ok(truth.applied > 0 || truth.effect, `${where}: verify says applied, but ${told} (${said})`);
    if (verdict === 'not-applied')
      assert.equal(truth.applied, 0, `${where}: verify says not applied, but ${told} (${said})`);
    return { verdict };
  };
  const before = applied();
  if (s.followUp === 'verify') {
    const r = await cli(['verify', from]);
    if (judge(r.stdout + r.stderr).known) return;
    assert.equal(applied() - before, 0, `${where}: verify sends no write (${r.stdout}${r.stderr})`);
    return;
  }
  const retry = s.followUp === 'resume-verify-and-retry';
  const r = await cli(['run', file, '--resume', from, '--in-doubt', retry ? 'verify-and-retry' : 'verify']);
  const said = r.stdout + r.stderr;
  // Sending again a code a licensing/create of the run made needs that code, which the journal
  // masked: verify-and-retry that would send it is refused, nothing sent (docs/pipeline-format.md).
  if (retry && w.before && /cannot resume: .*which the journal cannot give back/.test(said)) {
    assert.equal(r.code, 2, `${where}: ${said}`);
    assert.equal(applied() - before, 0, `${where}: refused, nothing sent (${said})`);
    const verified = judge((await cli(['verify', from])).stdout);
    if (!verified.known)
      assert.equal(verified.verdict, 'not-applied', `${where}: refused for a call to send again (${said})`);
    return;
  }
  const { verdict, known } = judge(said);
  if (known) return;
  // Applied: not sent again; not applied: sent again once on verify-and-retry's word; else refused, nothing sent.
  const sends = verdict === 'not-applied' && retry ? 1 : 0;
  if (sends === 0 && verdict !== 'applied')
    assert.equal(r.code, 2, `${where}: a resume verify cannot settle is refused (${said})`);
  assert.equal(applied() - before, sends, `${where}: sent again (${said})`);
  const then = applied();
  const again = await cli(['run', file, '--resume', from]);
  assert.equal(
    applied() - then,
    0,
    `${where}: resumed once more, nothing is sent again (${again.stdout}${again.stderr})`,
  );
}

/**
 * The changes no read of the API can tell from the run's write (docs/reliability.md, "What no read
 * can tell: the past put back"): a counterexample of one of them is said as a diagnostic, not
 * failed on, so that any other is still found. An entry goes once verify reads a proof of them
 * (the server's transaction log).
 */
const KNOWN: {
  see: string;
  matches: (w: OutsideWrite, changes: string[], verdict: string, truth: { applied: number }) => boolean;
}[] = [
  {
    see: 'a create someone else made the same is read applied',
    matches: (w, changes, verdict, truth) =>
      w.uses === 'classes/create' && verdict === 'applied' && truth.applied === 0 && changes.includes('same-write'),
  },
  {
    see: 'a create applied and deleted since is read not applied',
    matches: (w, changes, verdict, truth) =>
      w.uses === 'classes/create' &&
      verdict === 'not-applied' &&
      truth.applied > 0 &&
      changes.includes('delete-created'),
  },
  {
    see: 'an update or delete applied, the entity inserted again under its key since (version 1 again), is read not applied',
    matches: (w, changes, verdict, truth) =>
      (w.uses === 'classes/update' || w.uses === 'classes/delete') &&
      verdict === 'not-applied' &&
      truth.applied > 0 &&
      changes.includes('recreate-same-key'),
  },
];

/** A schedule of `write` (its name) with the changes named. */
function pinned(write: string, changes: string[], rest: Omit<OutsideSchedule, 'write' | 'changes'>): OutsideSchedule {
  const at = OUTSIDE_WRITES.findIndex((w) => w.name === write);
  const names = Object.keys(OUTSIDE_WRITES[at]!.changes);
  return { write: at, changes: changes.map((c) => names.indexOf(c)), ...rest };
}
const CUT = { attempts: 1, inDoubt: 'stop', killed: false } as const;

/** Schedules kept as they were found (shrunk by fast-check): each runs first, every time. */
const REGRESSIONS: OutsideSchedule[] = [
  // The first schedules this test found are changes no read can tell (KNOWN, above): kept in the
  // docs' words, not here, where they could not fail.
  // A license added behind a 504 and removed since by someone else: not applied, and verify-and-retry
  // added it again (test/recovery/outside-changes.test.ts).
  pinned('add (a code given)', ['remove-3'], {
    ...CUT,
    faults: ['gateway-after', 'none', 'none'],
    followUp: 'resume-verify-and-retry',
  }),
];

const schedule = fc
  .record({
    write: fc.nat({ max: OUTSIDE_WRITES.length - 1 }),
    attempts: fc.integer({ min: 1, max: 3 }),
    inDoubt: fc.constantFrom('stop' as const, 'retry' as const),
    faults: fc.array(fc.constantFrom(...FAULTS), { minLength: 3, maxLength: 3 }),
    killed: fc.boolean(),
    changes: fc.array(fc.nat({ max: 63 }), { minLength: 1, maxLength: 2 }),
    followUp: fc.constantFrom(...FOLLOW_UPS),
  })
  // Only a write in doubt is verified: the others are settled by the run itself.
  .filter((s) => modelOf(s).doubt);

test('every change someone else may make beside a write changes the world, on the sample state or after another change', () => {
  for (const w of OUTSIDE_WRITES)
    for (const [name, change] of Object.entries(w.changes)) {
      const changed = [undefined, ...Object.values(w.changes)].some((first) => {
        const emulator = new Emulator();
        const start = startOf(emulator);
        first?.(emulator, start);
        const was = JSON.stringify(emulator.state);
        change(emulator, start);
        return JSON.stringify(emulator.state) !== was;
      });
      assert.ok(changed, `${w.name}: ${name} changes nothing`);
    }
});

test(
  "someone else's changes between a cut and verify: verify says applied only of a write applied (or whose effect the world holds), not applied only of one not applied, and verify-and-retry sends again only that, once",
  { timeout: 3_600_000 },
  async (t) => {
    t.diagnostic(`FUZZ_SEED=${SEED}`);
    for (const s of REGRESSIONS) await check(t, s);
    await fc.assert(
      fc.asyncProperty(schedule, (s) => check(t, s)),
      { numRuns: RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}), includeErrorInReport: true },
    );
  },
);
