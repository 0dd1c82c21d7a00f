// Reading a journal back: the state of every instance (its last record wins, across the runs a
// resume appends), and the run as a result every report renders, also for a killed run. An
// instance that sent a call and has no end, or ended with its call unanswered, is in doubt.
import { UsageError } from '../errors.ts';
import type { RunResult, StepRun } from '../runner/result.ts';
import { IN_DOUBT_NOTE } from '../report/model.ts';
import type { PlannedInstance } from '../runner/resume.ts';
import type { JournalRecord } from './journal.ts';

type RunRecord = Extract<JournalRecord, { t: 'run' }>;

export interface InstanceState {
  /** The last end record, when the instance ended. */
  ended?: { run: StepRun; masked: string[] } | undefined;
  started: boolean;
  /** When it last started. */
  startedAt?: number | undefined;
  /** A call sent and not answered by the last start. */
  unanswered?: { method: string; path: string } | undefined;
  /** The time of its last record. */
  at: number;
}

export interface JournalState {
  /** The run records, oldest first (a resume appends one). */
  runs: RunRecord[];
  instances: Map<string, InstanceState>;
  /** The last run's end, when it finished. */
  finish: Extract<JournalRecord, { t: 'finish' }> | undefined;
  lastAt: number;
}

/** Parses a journal; a torn last line (the process was killed mid-write) is ignored. */
export function readJournal(text: string, path: string): JournalState {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const records: JournalRecord[] = [];
  lines.forEach((line, i) => {
    try {
      records.push(JSON.parse(line) as JournalRecord);
    } catch {
      if (i < lines.length - 1) throw new UsageError('BAD_JOURNAL', `${path}:${i + 1}: not a journal record`, { hint: 'give the file written by enginectl run --journal' });
    }
  });
  const runs = records.filter((r): r is RunRecord => r.t === 'run');
  if (runs.length === 0) throw new UsageError('BAD_JOURNAL', `${path}: no run record; this is not a journal of enginectl run --journal`);
  const instances = new Map<string, InstanceState>();
  let finish: JournalState['finish'];
  let lastAt = 0;
  for (const r of records) {
    lastAt = Math.max(lastAt, r.at);
    if (r.t === 'run') finish = undefined;
    else if (r.t === 'finish') finish = r;
    else {
      const state = instances.get(r.key) ?? { started: false, at: r.at };
      state.at = r.at;
      if (r.t === 'start') Object.assign(state, { started: true, startedAt: r.at, ended: undefined, unanswered: undefined });
      if (r.t === 'send') state.unanswered = { method: r.method, path: r.path };
      if (r.t === 'answer' && !r.unknown) state.unanswered = undefined;
      if (r.t === 'end') state.ended = { run: r.run, masked: r.masked };
      instances.set(r.key, state);
    }
  }
  return { runs, instances, finish, lastAt };
}

/** Whether an instance is in doubt, and about which call. */
export function doubtOf(state: InstanceState | undefined): { method: string; path: string } | undefined {
  if (!state) return undefined;
  if (state.ended) return state.ended.run.inDoubt ?? undefined;
  return state.unanswered;
}

function notEnded(p: PlannedInstance, state: InstanceState | undefined): StepRun {
  const doubt = doubtOf(state);
  const error = doubt
    ? { code: 'IN_DOUBT', message: `the run ended after sending ${doubt.method} ${doubt.path}: ${IN_DOUBT_NOTE}`, hint: 'check on the server whether it was applied, then resume with --resume JOURNAL --in-doubt skip (it was) or --in-doubt retry (it was not)' }
    : state?.started
      ? { code: 'NOT_FINISHED', message: 'the run ended before this step finished', hint: 'run it again with --resume JOURNAL' }
      : { code: 'NOT_STARTED', message: 'not started: the run ended before it' };
  return {
    ...p,
    outcome: 'cancelled',
    continuedOnError: false,
    startedAt: state?.startedAt,
    durationMs: state?.startedAt === undefined ? 0 : state.at - state.startedAt,
    attempts: state?.started ? 1 : 0,
    inputs: {},
    outputs: {},
    figures: undefined,
    error,
    warnings: [],
    result: null,
    inDoubt: doubt,
  };
}

/** The last run of the journal as a result: every planned instance, as far as the journal knows it. */
export function resultOf(state: JournalState): RunResult {
  const run = state.runs.at(-1)!;
  const steps = run.instances.map((p) => {
    const s = state.instances.get(p.key);
    return s?.ended ? s.ended.run : notEnded(p, s);
  });
  // A run without its finish record was killed: it did not finish.
  return { file: run.file, name: run.name, outcome: state.finish?.outcome ?? 'cancelled', startedAt: run.at, durationMs: state.lastAt - run.at, steps };
}
