// The write-fate model (src/api/fate.ts) proved by exhaustive fault schedules: for every step type
// that writes, fast-check draws a schedule of attempts (1-3) × a fault at each × a retry policy × a
// kill of the run at its last call × an operator's follow-up (report, resume with each decision,
// the same run again, two resumes at once). The model (fate-model.ts) says, from the faults alone, what the
// server applied and whether the write is in doubt; the emulator counts what it applied. The
// invariants: the server applied exactly what the model says, never more than once unless a
// recorded decision sent it again; every report says "in doubt" exactly when the model does.
// `npm test` runs a few dozen schedules; `npm run fuzz` thousands. A failing schedule is shrunk by
// fast-check and kept in REGRESSIONS.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import {
  ENV,
  FAULTS,
  HEAD,
  ONCE_ONLY,
  RULES,
  WRITES,
  cutAfterLastSend,
  inDoubt,
  modelRun,
  stepOf,
  type Fate,
  type Fault,
} from './fate-model.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 0);
/** Schedules per run: a few dozen in npm test, a hundred times FUZZ_RUNS in npm run fuzz (2,000). */
const RUNS = SCALE > 0 ? SCALE * 100 : 24;

const FOLLOW_UPS = [
  'report',
  'resume',
  'resume-skip',
  'resume-retry',
  'resume-verify',
  'resume-verify-and-retry',
  'run-again',
  'two-resumes',
] as const;
type FollowUp = (typeof FOLLOW_UPS)[number];

interface Schedule {
  step: number;
  attempts: number;
  inDoubt: 'stop' | 'retry';
  faults: Fault[];
  /** The run killed right after the last write left (its journal cut after that send record). */
  killed: boolean;
  followUp: FollowUp;
}

async function check(t: TestContext, s: Schedule): Promise<void> {
  const c = WRITES[s.step % WRITES.length]!;
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fate-prop-'));
  const file = join(dir, 'fate.yml');
  writeFileSync(
    file,
    `${HEAD}  - uses: ${c.uses}\n    with: ${c.with}\n    retry: { attempts: ${s.attempts}, delay: 1ms, in-doubt: ${s.inDoubt} }\n`,
  );
  // One rule a request, in order, up to the first attempt the API answers as it would.
  for (const fault of s.faults.slice(0, s.attempts)) {
    if (fault === 'none') break;
    emulator.faults.add({ method: c.method, path: c.path, times: 1, ...RULES[fault] });
  }
  const applied = () => emulator.requests.filter((r) => r.applied && r.method === c.method && r.path === c.path).length;
  const env = { ...ENV, ENGINE_URL: url };
  const journal = join(dir, 'run.journal.jsonl');
  const where = `${c.uses} ${JSON.stringify(s)}`;

  const run = await runCli(['run', file, '--journal', journal, '--report-json', join(dir, 'run.json')], { env });
  const model = modelRun(c, s);
  assert.equal(applied(), model.applied, `${where}: the server applied what the model says (${run.stdout})`);
  assert.equal(
    stepOf(join(dir, 'run.json')).inDoubt !== null,
    inDoubt(model.sent, model.success),
    `${where}: the run's report says in doubt exactly when the model does`,
  );
  emulator.faults.clear();

  // A kill right after the last write left: its answer, whatever it was, never reached the journal.
  const fates: Fate[] = s.killed ? [...model.sent.slice(0, -1), 'unknown'] : model.sent;
  const done = !s.killed && model.success;
  const doubt = inDoubt(fates, done);
  const from = s.killed ? cutAfterLastSend(journal) : journal;
  const before = applied();
  const report = await runCli(['report', from, '--report-json', join(dir, 'report.json')]);
  assert.notEqual(report.code, 2, `${where}: ${report.stderr}`);
  assert.equal(
    stepOf(join(dir, 'report.json')).inDoubt !== null,
    doubt,
    `${where}: report says in doubt exactly when the model does`,
  );

  // A write the server refuses once applied (a delete) is not applied again whatever is sent.
  const once = ONCE_ONLY.has(c.uses) && model.applied > 0;
  const resume = (decision?: string) =>
    runCli(['run', file, '--resume', from, ...(decision ? ['--in-doubt', decision] : [])], { env });
  // What the follow-up may send: nothing while in doubt, but on a recorded decision to send again;
  // once when the write is known not applied (refused, never sent); nothing when it is done.
  // A run of the step sends its write once, but a write its step fails on under in-doubt: retry
  // is sent by every attempt.
  const perRun = c.failsOnApplied && s.inDoubt === 'retry' ? s.attempts : 1;
  const resent = (decided: boolean) => (once ? 0 : doubt ? (decided ? perRun : 0) : done ? 0 : perRun);
  switch (s.followUp) {
    case 'report':
      return;
    case 'resume':
    case 'resume-skip':
    case 'resume-verify':
    case 'resume-verify-and-retry': {
      const decision = s.followUp === 'resume' ? undefined : s.followUp.slice('resume-'.length);
      const r = await resume(decision);
      if (doubt && !decision) assert.equal(r.code, 2, `${where}: a resume without a decision refuses while in doubt`);
      assert.equal(applied() - before, resent(false), `${where}: applied again (${r.stdout}${r.stderr})`);
      return;
    }
    case 'resume-retry': {
      const r = await resume('retry');
      assert.equal(applied() - before, resent(true), `${where}: applied again (${r.stdout}${r.stderr})`);
      if (doubt)
        assert.match(
          readFileSync(from, 'utf8'),
          /"t":"decision","key":"[^"]+","decision":"retry"/,
          `${where}: the decision is recorded`,
        );
      return;
    }
    case 'run-again': {
      const r = await runCli(['run', file, '--journal', from], { env });
      // A new release on the same journal: refused while a call is in doubt; else it sends its write once.
      if (doubt) assert.equal(r.code, 2, `${where}: ${r.stdout}${r.stderr}`);
      assert.equal(applied() - before, doubt || once ? 0 : perRun, `${where}: applied again (${r.stdout}${r.stderr})`);
      return;
    }
    case 'two-resumes': {
      const both = await Promise.all([resume('retry'), resume('retry')]);
      assert.equal(
        applied() - before,
        resent(true),
        `${where}: two resumes at once send as one (${both.map((r) => r.stderr).join(' | ')})`,
      );
      return;
    }
  }
}

const schedule = fc.record({
  step: fc.nat({ max: WRITES.length - 1 }),
  attempts: fc.integer({ min: 1, max: 3 }),
  inDoubt: fc.constantFrom('stop' as const, 'retry' as const),
  faults: fc.array(fc.constantFrom(...FAULTS), { minLength: 3, maxLength: 3 }),
  killed: fc.boolean(),
  followUp: fc.constantFrom(...FOLLOW_UPS),
});

/** Schedules kept as they were found or as the issue told them: each runs first, every time. */
const REGRESSIONS: Schedule[] = [
  // Found by a probe: a write the server applied (200), which its step then failed on its own check
  // (expect-status), was sent again by its retry and by a plain resume.
  {
    step: WRITES.findIndex((c) => c.failsOnApplied),
    attempts: 3,
    inDoubt: 'stop',
    faults: ['none', 'none', 'none'],
    killed: false,
    followUp: 'resume',
  },
  {
    step: WRITES.findIndex((c) => c.failsOnApplied),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['none', 'refused', 'none'],
    killed: false,
    followUp: 'run-again',
  },
  // Found by the review: the model said a follow-up sends such a write once, where each attempt does.
  {
    step: WRITES.findIndex((c) => c.failsOnApplied),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['none', 'none', 'none'],
    killed: false,
    followUp: 'resume-retry',
  },
  {
    step: WRITES.findIndex((c) => c.failsOnApplied),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['refused', 'refused', 'refused'],
    killed: false,
    followUp: 'resume',
  },
  // A retry after a cut: applied, reset; then a 503 (api-5xx) — resumed without a decision.
  {
    step: WRITES.findIndex((c) => c.uses === 'update/vfs'),
    attempts: 2,
    inDoubt: 'stop',
    faults: ['reset-after', 'api-5xx', 'none'],
    killed: false,
    followUp: 'resume',
  },
  {
    step: WRITES.findIndex((c) => c.uses === 'update/vfs'),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['reset-after', 'api-5xx', 'none'],
    killed: false,
    followUp: 'resume',
  },
  // A gateway's 504 after the API applied a system update.
  {
    step: WRITES.findIndex((c) => c.uses === 'update/system'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['gateway-after', 'none', 'none'],
    killed: false,
    followUp: 'resume',
  },
  // The same run again on its journal, a call in doubt.
  {
    step: WRITES.findIndex((c) => c.uses === 'update/vfs'),
    attempts: 1,
    inDoubt: 'stop',
    faults: ['reset-after', 'none', 'none'],
    killed: false,
    followUp: 'run-again',
  },
  {
    step: WRITES.findIndex((c) => c.uses === 'classes/create'),
    attempts: 3,
    inDoubt: 'retry',
    faults: ['refused', 'mid-body', 'none'],
    killed: true,
    followUp: 'two-resumes',
  },
  // Found by this test: a 2xx the step could not read was written to the journal as applied.
  {
    step: WRITES.findIndex((c) => c.uses === 'replication/sync'),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['unreadable-2xx', 'none', 'none'],
    killed: true,
    followUp: 'report',
  },
  {
    step: WRITES.findIndex((c) => c.uses === 'classes/delete'),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['unreadable-2xx', 'none', 'none'],
    killed: false,
    followUp: 'report',
  },
  // Found by npm run fuzz: a license removed, its answer cut, removed again (204, no license left).
  {
    step: WRITES.findIndex((c) => c.uses === 'licensing/remove'),
    attempts: 2,
    inDoubt: 'retry',
    faults: ['reset-after', 'unreadable-2xx', 'none'],
    killed: false,
    followUp: 'report',
  },
];

test(
  'every write is applied at most once without a recorded decision, and every report says in doubt exactly when the model does',
  { timeout: 3_600_000 },
  async (t) => {
    for (const s of REGRESSIONS) await check(t, s);
    await fc.assert(
      fc.asyncProperty(schedule, (s) => check(t, s)),
      { numRuns: RUNS },
    );
  },
);
