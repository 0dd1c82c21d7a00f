// A write's fate through the GitHub Action's entry (runAction, the root action in this process with
// a recording toolkit, as test/action/*.test.ts call it), proved by the fault schedules and the model
// of test/fuzz/write-fate.test.ts (fate-model.ts): fast-check draws a write, attempts (1-3) × a
// fault at each × a retry policy × a kill of the job at its last call, where its journal is kept
// (the runner's temporary directory, its `journal` output; or a run store, input `store`, its
// `run-id` output, the runner lost with its disk), the step's `longest:` (none, or 10m with the
// follow-up within or past it on the simulated clock), and a follow-up job with the action's own
// inputs: `journal:` (the file, or the run id of the store) with each `in-doubt:` (none, skip,
// retry, verify, verify-and-retry), or two such jobs at once. The invariants, as for the CLI: the
// emulator applied exactly what the model says, never twice without a recorded decision; the
// action's JSON report (its `report` output) says "in doubt" exactly when the model does; verify's
// evidence says applied only of a write the server applied, not applied only of one it did not
// and past `longest:` (where a write the API shows is then proved so, and verify-and-retry sends it
// once). `npm test` runs a dozen schedules; `npm run fuzz` more.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { actionDef } from '../../src/action/definitions.ts';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, type InProcessRun } from '../helpers/toolkit.ts';
import {
  HEAD,
  PROVED_NOT_APPLIED,
  afterRun,
  arbitrary,
  cutAfterLastSend,
  cutStoreAfterLastSend,
  faultRules,
  inDoubt,
  loseRunnerDisk,
  stepOf,
  verdictsIn,
  writeOf,
  type Schedule,
} from './fate-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules: a dozen in npm test, ten times FUZZ_RUNS in npm run fuzz (200). */
const RUNS = SCALE > 0 ? SCALE * 10 : 12;
const ROOT = actionDef('enginectl');

const FOLLOW_UPS = [
  'report',
  'resume',
  'resume-skip',
  'resume-retry',
  'resume-verify',
  'resume-verify-and-retry',
  'two-resumes',
] as const;
type ActionSchedule = Schedule<(typeof FOLLOW_UPS)[number]> & {
  /** The job's journal kept in a run store (input store), else the runner's temporary directory. */
  store: boolean;
  /** The step's `longest:`: none, or 10m and the follow-up within it or past it on the simulated clock. */
  longest: 'none' | 'within' | 'past';
};

const said = (r: InProcessRun) => [...r.log, ...r.failed, ...r.errors.map((e) => e.message)].join('\n');

async function check(t: TestContext, s: ActionSchedule): Promise<void> {
  const c = writeOf(s);
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-action-'));
  const storeDir = join(dir, 'store');
  mkdirSync(storeDir);
  const store: Record<string, string> = s.store ? { store: pathToFileURL(storeDir).href } : {};
  const longest = s.longest === 'none' ? '' : '    longest: 10m\n';
  const pipeline = `${HEAD}  - uses: ${c.uses}\n    with: ${c.with}\n${longest}    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }\n`;
  for (const rule of faultRules(c, s)) emulator.faults.add(rule);
  const applied = () => emulator.requests.filter((r) => r.applied && r.method === c.method && r.path === c.path).length;
  const where = `action ${c.uses} ${JSON.stringify(s)}`;
  const job = (inputs: Record<string, string> = {}) =>
    runActionInProcess(ROOT, {
      files: { 'fate.yml': pipeline },
      inputs: { pipeline: 'fate.yml', url, username: 'admin', password: 'admin', ...store, ...inputs },
      env: { PROD_TOKEN: 'prod-token' },
      clock,
    });

  const first = await job();
  const { model, doubt, resent } = afterRun(c, s);
  assert.equal(applied(), model.applied, `${where}: the server applied what the model says (${said(first)})`);
  assert.equal(
    stepOf(first.outputs.report!).inDoubt !== null,
    inDoubt(model.sent, model.success),
    `${where}: the job's report says in doubt exactly when the model does (${said(first)})`,
  );
  emulator.faults.clear();
  // The job killed right after its last write left: its journal cut after that send record (and,
  // with a store, the runner's own copy lost with its disk).
  let from: string;
  if (s.store) {
    from = first.outputs['run-id']!;
    assert.ok(from, `${where}: the run is kept in the store (${said(first)})`);
    if (s.killed) cutStoreAfterLastSend(storeDir, from);
    loseRunnerDisk(from);
  } else {
    from = s.killed ? cutAfterLastSend(first.outputs.journal!) : first.outputs.journal!;
    assert.ok(from, `${where}: the journal output (${said(first)})`);
  }
  await clock.sleep((s.longest === 'past' ? 13 : 5) * 60_000, new AbortController().signal);
  const before = applied();
  // What the job left, as `enginectl report` reads it (the journal file, or the run from the store).
  const reportJson = join(dir, 'report.json');
  const report = await runCli([
    'report',
    ...(s.store ? ['--store', store.store!, '--run', from] : [from]),
    '--report-json',
    reportJson,
  ]);
  assert.notEqual(report.code, 2, `${where}: ${report.stdout}${report.stderr}`);
  assert.equal(
    stepOf(reportJson).inDoubt !== null,
    doubt,
    `${where}: report says in doubt exactly when the model does (${report.stdout})`,
  );
  if (s.followUp === 'report') return;

  const resume = (decision?: string) => job({ journal: from, ...(decision ? { 'in-doubt': decision } : {}) });
  // Past longest:, a write the API shows that the server never applied is proved not applied; else cannot tell.
  const provable = PROVED_NOT_APPLIED.has(c.uses) && !c.failsOnApplied && model.applied === 0;
  const judge = (r: InProcessRun) => {
    const text = said(r);
    const verdicts = verdictsIn(text);
    // The action says a refusal twice (its log and its failure): one verdict, one call in doubt.
    assert.ok(new Set(verdicts).size <= 1, `${where}: one call in doubt at most (${text})`);
    const [verdict] = verdicts;
    if (verdict === 'applied')
      assert.ok(model.applied > 0, `${where}: verify says applied of a write not applied (${text})`);
    if (verdict === 'not-applied')
      assert.ok(model.applied === 0 && s.longest === 'past', `${where}: verify says not applied unproved (${text})`);
    if (verdict && provable)
      assert.equal(verdict, s.longest === 'past' ? 'not-applied' : 'cannot-tell', `${where}: ${text}`);
    return verdict;
  };
  if (s.followUp === 'two-resumes') {
    const both = await Promise.all([resume('retry'), resume('retry')]);
    assert.equal(
      applied() - before,
      resent(true),
      `${where}: two jobs resuming at once send as one (${both.map(said).join(' | ')})`,
    );
    return;
  }
  const decision = s.followUp === 'resume' ? undefined : s.followUp.slice('resume-'.length);
  const r = await resume(decision);
  const text = said(r);
  const verdict = judge(r);
  if (doubt && !decision) assert.equal(r.code, 2, `${where}: a job resuming without in-doubt refuses (${text})`);
  // Verify's applied settles it; its not applied sends it again on verify-and-retry's word; else only a retry does.
  const retry = decision === 'retry' || (decision === 'verify-and-retry' && verdict === 'not-applied');
  assert.equal(applied() - before, verdict === 'applied' ? 0 : resent(retry), `${where}: applied again (${text})`);
  // Resumed once more, without in-doubt: what the first carried or sent is not sent again.
  const then = applied();
  const again = await resume();
  assert.equal(applied() - then, 0, `${where}: resumed once more (${said(again)})`);
}

/** Schedules kept as they were found: each runs first, every time. */
const REGRESSIONS: ActionSchedule[] = [];

test(
  "the GitHub Action's entry: a write is applied at most once without a recorded decision, resumed by a later job from its journal or its run store with each in-doubt, and every report says in doubt exactly when the model does",
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of REGRESSIONS) await check(t, s);
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(
            arbitrary(FOLLOW_UPS),
            fc.boolean(),
            fc.constantFrom('none' as const, 'within' as const, 'past' as const),
          )
          .map(([s, store, longest]) => ({ ...s, store, longest })),
        (s) => check(t, s),
      ),
      { numRuns: RUNS, includeErrorInReport: true },
    );
  },
);
