// Reading a journal back: each record checked against the journal's schema (a forged or damaged one is
// refused at its line, exit 2), then the state of every instance across the runs of this release (the
// first run and the resumes after it), by identity: its last end and call, and the operator's decisions.
import { UsageError } from '../errors.ts';
import { attemptFate } from '../api/index.ts';
import type { StepError } from '../runner/result.ts';
import { decodeJournal, type Framed } from './frame.ts';
import { checkSeals } from './seal.ts';
export { damagedJournal, notAJournal, parseRecords } from './parse-records.ts';
import { parseRecords } from './parse-records.ts';
import { alteredJournal, CLI_WAYS, giveJournal, type WaysOn } from '../ways-on.ts';
import type { JournalRecord, RunRecord } from './records.ts';
import { withSharedOutputs } from './shared-outputs.ts';
import { ParkReader } from './parks.ts';
export type { ParkedState } from './parks.ts';

export type { CallState, InstanceState, JournalState } from './journal-state.ts';
import type { InstanceState, JournalState } from './journal-state.ts';

/** A journal of one torn line: its run was killed while writing its run record, before anything was sent. */
export const killedAtFirstRecord = (framed: Framed) => framed.lines.length === 0 && framed.torn !== undefined;

/** What a reader of a journal as it is says of its torn last line (report, verify, report --merge). */
export const tornLine = (name: string, line: number) =>
  `${name}:${line}: the last record is torn (the run that wrote it was killed while writing it); it is left out and read as never written: a call whose answer it held reads in doubt`;

/** A journal's text read back; with `key`, every record's seal is checked first (seal.ts); `ways`: a refusal's words. */
/** The codes of a write its window refused (admission.ts): it was not sent. */
const WINDOW_REFUSED = new Set(['WINDOW_PARKED', 'WINDOW_CLOSED']);

export function readJournal(text: string, path: string, key?: string, ways: WaysOn = CLI_WAYS): JournalState {
  const framed = decodeJournal(text);
  if (killedAtFirstRecord(framed))
    throw new UsageError(
      'BAD_JOURNAL',
      `${path}: the run that wrote it was killed while writing its first record, before anything was sent: there is no run to report`,
      { hint: 'run the pipeline again: with --resume on this file, or with a new journal (nothing of it was done)' },
    );
  if (key && framed.damaged === undefined) checkSeals(text, path, key, framed.wholeBytes, ways);
  return { ...journalState(parseRecords(framed, path, ways), path, ways, lineNumbers(framed)), torn: framed.torn };
}

/** The line of each whole record of a journal, in order (parseRecords gives a record for each). */
export const lineNumbers = (framed: Framed) => framed.lines.map((l) => l.line);

/**
 * A record no enginectl writes where it stands (an answer with no send before it, an end of other
 * inputs than its call's) at `line`: the journal was edited, or mixes two. Acting on it could
 * forget a write in doubt and send it again: refused.
 */
function unordered(path: string, r: { t: string; key?: string }, why: string, ways: WaysOn, line?: number) {
  const a = /^[aeiou]/.test(r.t) ? 'an' : 'a';
  const at = line === undefined ? path : `${path}:${line}`;
  return new UsageError('BAD_JOURNAL', `${at}: ${a} ${r.t} record of ${r.key ?? 'an instance'} ${why}`, {
    hint: `no run writes it so: ${alteredJournal(ways, line, true)}; nothing was run`,
  });
}

/** The state the records of a journal say (`lines`: the line of each, lineNumbers, that a refusal names). */
export function journalState(
  records: JournalRecord[],
  path: string,
  ways: WaysOn = CLI_WAYS,
  lines: readonly number[] = [],
): JournalState {
  // A fresh run (not a resume) starts a new release in the same file.
  const first = records.findLastIndex((r) => r.t === 'run' && !r.resume);
  if (first < 0)
    throw new UsageError('BAD_JOURNAL', `${path}: no run record; this is not a journal of ${ways.journalWriter}`, {
      hint: giveJournal(ways),
    });
  const release = records.slice(first);
  const runs: RunRecord[] = [];
  const instances = new Map<string, InstanceState>();
  let lastAt = 0;
  let runAt = 0;
  let runSeq = -1;
  let halted: JournalState['halted'];
  let rollout: JournalState['rollout'];
  let continued: JournalState['continued'];
  const decided: JournalState['decided'] = [];
  const parks = new ParkReader();
  let lease: JournalState['lease'];
  let finished = false;
  let stopped: StepError | undefined;
  // Each instance as it stood before its start in this run, until it sends: a start refused by its
  // window as its write was about to leave (runner/leave-gate.ts) sent nothing and acted on nothing.
  const beforeStart = new Map<string, InstanceState>();
  for (const [i, r] of release.entries()) {
    lastAt = Math.max(lastAt, r.at);
    // The finish record says the run ended: it is the last one of a run that was not killed (a decision after it is no run).
    if (r.t !== 'decide') finished = r.t === 'finish';
    if (r.t === 'run') {
      if (runs.length > 0 && r.salt !== runs[0]!.salt)
        throw new UsageError('BAD_JOURNAL', `${path}: a resume record of another journal (its salt differs)`, {
          hint: giveJournal(ways, lines[first + i]),
        });
      runs.push(r);
      runAt = r.at;
      runSeq = first + i;
      beforeStart.clear();
      parks.run(r.at);
      [stopped, rollout, lease] = [undefined, undefined, undefined];
      continue;
    }
    if (r.t === 'park') {
      parks.park(r.park, r.at);
      continue;
    }
    if (r.t === 'decide') {
      const { t: _t, ...decision } = r;
      parks.decide(decision, first + i);
      decided.push(decision);
      continue;
    }
    // The outcome is computed from the instances, never read from the finish record.
    if (r.t === 'finish') {
      stopped = r.stopped;
      parks.finish();
      continue;
    }
    if (r.t === 'rollout' || r.t === 'lease') {
      if (r.t === 'lease') lease = r.lease;
      else parks.rollout((rollout = r.result));
      continue;
    }
    if (r.t === 'halt' || r.t === 'continue') {
      halted = r.t === 'halt' ? { wave: r.wave, reason: r.reason } : undefined;
      if (r.t === 'continue') continued = { wave: r.wave, by: r.by, at: r.at };
      continue;
    }
    const state: InstanceState = instances.get(r.key) ?? { started: false, attempts: [], tried: 1 };
    switch (r.t) {
      case 'start':
        beforeStart.set(r.key, { ...state });
        Object.assign(state, {
          started: true,
          startedAt: r.at,
          startedSeq: first + i,
          name: r.name,
          ended: undefined,
          call: undefined,
          attempts: [],
          tried: 1,
          snapshot: undefined,
          decision: undefined,
        });
        break;
      case 'snapshot':
        state.snapshot = { value: r.value, error: r.error };
        break;
      case 'send':
        beforeStart.delete(r.key);
        state.call = {
          method: r.method,
          path: r.path,
          body: r.body,
          at: r.at,
          ended: false,
          inputs: r.inputs,
          seq: first + i,
          run: runs.length - 1,
          clock: r.clock,
        };
        state.tried = Math.max(state.tried, r.attempt ?? 1);
        // Sent and not yet answered: unknown until an answer says otherwise.
        state.attempts.push({ method: r.method, path: r.path, fate: 'unknown' });
        break;
      case 'status':
        if (!state.call) throw unordered(path, r, 'with no send record before it', ways, lines[first + i]);
        state.call.status = r.status;
        if (state.attempts.length > 0) state.attempts.at(-1)!.status = r.status;
        break;
      case 'answer': {
        if (!state.call || state.attempts.length === 0)
          throw unordered(path, r, 'with no send record before it', ways, lines[first + i]);
        const status = r.status ?? state.call.status;
        Object.assign(state.call, { ended: true, status });
        // An answer after the answer: the step could not read a 2xx it heard (status kept, fate
        // unknown), or read it as the server's refusal (refused).
        const evidence = { sent: true as const, status, api: r.api, error: r.error, refused: r.refused };
        Object.assign(state.attempts.at(-1)!, { status, fate: attemptFate(r.method, r.path, evidence) });
        break;
      }
      case 'end': {
        // The end of a call its instance sent in the same run is of the inputs it sent it with (a
        // later run's end of a carried instance is of that run's).
        const call = state.call;
        if (
          call?.inputs !== undefined &&
          (call.seq ?? -1) > runSeq &&
          r.inputs !== undefined &&
          r.inputs !== call.inputs
        )
          throw unordered(path, r, 'whose inputs are not those its call was sent with', ways, lines[first + i]);
        // Refused by its window before it sent anything (at its admission no start is written): its
        // call, attempts and the decision about them stand as before the start, as its snapshot;
        // its start (when, where in the journal, its name) is this run's.
        const before = beforeStart.get(r.key);
        if (before && WINDOW_REFUSED.has(r.run.error?.code ?? '')) {
          const { call, attempts, tried, snapshot, decision } = before;
          Object.assign(state, { call, attempts, tried, snapshot, decision });
        }
        state.ended = { ...withSharedOutputs(r), runAt };
        break;
      }
      case 'decision':
        state.decision = r;
        break;
    }
    instances.set(r.key, state);
  }
  const { parked } = parks; // a continue killed before it ended: still parked there, with its decisions
  return {
    runs,
    instances,
    lastAt,
    halted,
    rollout,
    continued,
    decided,
    finished,
    stopped,
    parked,
    parks: parks.parks,
    lease,
  };
}
