// The release a journal records, as a result every report renders: every instance the last run
// planned, as the journal knows it (ended in this run or an earlier one, in doubt, not finished,
// not started), names as the run resolved them. The outcome is computed from the instances,
// never read from a record.
import { selectionOf } from './records.ts';
import { buildReport, IN_DOUBT_NOTE, type Report } from '../report/model.ts';
import { identityOf, newInstance, type PlannedInstance } from '../runner/instance.ts';
import {
  inDoubtHint,
  runOutcome,
  type Decision,
  type RunResult,
  type StepError,
  type StepRun,
} from '../runner/result.ts';
import { readJournal, type InstanceState, type JournalState } from './read.ts';
import { doubtOf, standingDecision } from './doubt.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

function notEnded(
  p: PlannedInstance,
  state: InstanceState | undefined,
  stopped: StepError | undefined,
  ways: WaysOn,
): StepRun {
  const doubt = doubtOf(state);
  const answered =
    doubt?.status === undefined ? '' : ` (answered ${doubt.status}; the run ended before its result was recorded)`;
  const error = doubt
    ? {
        code: 'IN_DOUBT' as const,
        message: `the run ended after sending ${doubt.method} ${doubt.path}${answered}: ${IN_DOUBT_NOTE}`,
        hint: inDoubtHint(ways),
      }
    : stopped
      ? stopped
      : state?.started
        ? {
            code: 'NOT_FINISHED' as const,
            message: 'the run ended before this step finished',
            hint: `run it again with ${ways.resumeFrom('JOURNAL')}`,
          }
        : { code: 'NOT_STARTED' as const, message: 'not started: the run ended before it' };
  return newInstance(
    { ...identityOf(p), name: state?.name ?? p.name },
    {
      startedAt: state?.startedAt,
      attempts: state?.started ? state.tried : 0,
      error,
      inDoubt: doubt,
      // No end since the decision was recorded: nothing acted on it (a carried one is ended, a retried one started).
      decision: doubt ? pendingDecision(state) : undefined,
    },
  );
}

function ended(state: InstanceState, lastRunAt: number): StepRun {
  const e = state.ended!;
  const run = withPending(journalTimed(e.run, state.startedAt, e.at), state);
  if (e.runAt >= lastRunAt || run.resume === 'earlier-run') return run;
  return { ...run, resume: 'earlier-run', earlierRunAt: e.runAt };
}

/** An instance in doubt with the operator's decision recorded since it ended: shown standing, not acted on. */
function withPending(run: StepRun, state: InstanceState): StepRun {
  const d = run.decision || !doubtOf(state) ? undefined : pendingDecision(state);
  return d ? { ...run, decision: d } : run;
}

/**
 * The operator's decision recorded since the instance's last end or start (a resume killed before
 * acting on it, or decide on a parked run): it stands, and the run that goes on acts on it, so the
 * report says so, as not acted on yet. One to go on without it (decide --exclude, --continue)
 * stands only for the run going on from its park, and is not shown so.
 */
function pendingDecision(state: InstanceState | undefined): Decision | undefined {
  const d = state?.decision;
  if (!d || d.leftInDoubt) return undefined;
  const { decision, by, at, verdict, evidence } = d;
  return { decision, by, at, verdict, evidence, pending: true };
}

/**
 * An instance timed by its start and end records, on the clock that times the run (the journal's:
 * under --emulator the simulated one, its waits included), not by the run's stopwatch, which its
 * record holds: the steps lie within the run. One carried from an earlier run keeps its own.
 */
function journalTimed(run: StepRun, start: number | undefined, end: number): StepRun {
  if (run.startedAt === undefined || start === undefined || run.resume === 'earlier-run') return run;
  return { ...run, startedAt: start, durationMs: Math.max(0, end - start) };
}

/**
 * The report of the release a journal's text records (`path` names it in errors; `key`: its seal
 * key); `torn` hears the line of a torn last record it left out.
 */
export function journalReport(
  text: string,
  path: string,
  key?: string,
  torn?: (line: number) => void,
  ways: WaysOn = CLI_WAYS,
): Report {
  return journalRelease(text, path, key, torn, ways).report;
}

/**
 * The report of the release a journal's text records, and when its last run started: each of its
 * steps not marked done in an earlier run (`resume: earlier-run`) that has an end ended in that run.
 */
export function journalRelease(
  text: string,
  path: string,
  key?: string,
  torn?: (line: number) => void,
  ways: WaysOn = CLI_WAYS,
): { report: Report; lastRunAt: number } {
  const state = readJournal(text, path, key, ways);
  if (state.torn !== undefined) torn?.(state.torn);
  return { report: buildReport(releaseOf(state, ways)), lastRunAt: state.runs.at(-1)!.at };
}

/** `ways`: how the steps' hints name the ways on (the CLI's flags by default, an action's inputs). */
export function releaseOf(state: JournalState, ways: WaysOn = CLI_WAYS): RunResult {
  const last = state.runs.at(-1)!;
  const planned = new Set(last.instances.map((p) => p.key));
  const steps = last.instances.map((p) => {
    const s = state.instances.get(p.key);
    return s?.ended ? ended(s, last.at) : notEnded(p, s, state.stopped, ways);
  });
  // A rollout's analysis rounds are not planned ahead: each one the last run ended is shown too,
  // timed on the journal's clock as the others are.
  for (const [key, s] of state.instances)
    if (!planned.has(key) && s.ended && s.ended.runAt >= last.at) steps.push(ended(s, last.at));
  // A write an earlier run left in doubt, undecided, outside the last run's selection: still in
  // doubt, the release's as much as the last run's (a resume with --only decided only its own).
  const earlier = new Map(state.runs.flatMap((r) => r.instances).map((p) => [p.key, p]));
  for (const [key, p] of earlier) {
    const s = state.instances.get(key);
    if (planned.has(key) || !doubtOf(s) || standingDecision(s)) continue;
    steps.push(s?.ended ? ended(s, last.at) : notEnded(p, s, state.stopped, ways));
  }
  // An instance the journal has no end of is cancelled (not started, not finished, in doubt): so is the release.
  const outcome = runOutcome(steps, state.rollout);
  return {
    file: last.file,
    name: last.name,
    outcome,
    startedAt: state.runs[0]!.at,
    durationMs: state.lastAt - state.runs[0]!.at,
    steps,
    selection: selectionOf(last),
    matrix: last.matrix,
    pipelineSha256: last.sha256,
    ...(state.rollout ? { rollout: state.rollout } : {}),
    ...(state.continued ? { continued: state.continued } : {}),
    ...(state.decided.length ? { decided: state.decided } : {}),
    ...(state.lease ? { lease: state.lease } : {}),
    // The last run parked (a write waiting for its window, or its rollout): every report says parked,
    // never what ran so far. A park an earlier run went on from is not this run's word.
    ...(state.parked && state.parked.at >= last.at ? { parked: state.parked.park } : {}),
  };
}
