// What a journal's records say of its release, as journal/read.ts reads them: each instance's state
// (its last start, call, attempts, end and decision) and the release's (its runs, rollout, parks).
import type { Attempt, ClockSeen } from '../api/index.ts';
import type { RolloutResult, StepError } from '../runner/result.ts';
import type { OperatorDecision } from '../runner/rollout-result.ts';
import type { JournalRecord, RunRecord } from './records.ts';
import type { ParkedState } from './parks.ts';

type EndRecord = Extract<JournalRecord, { t: 'end' }>;
type DecisionRecord = Extract<JournalRecord, { t: 'decision' }>;
/** The last non-idempotent call of an instance's last start, as it was sent (what verify compares against). */
export interface CallState {
  method: string;
  path: string;
  /** Its body as recorded (masked), and when it left; the status line, when it arrived. */
  body: unknown;
  at: number;
  status?: number | undefined;
  /** The exchange ended: its answer read (status), or an error. */
  ended: boolean;
  /** The digest of the inputs it was sent with (none in a journal of an earlier version). */
  inputs?: string | undefined;
  /** Its record's place in the journal: the journal's order, never a clock. */
  seq?: number | undefined;
  /** The run it was sent under: its run record's index in the release's runs (verify reads the server at the URL that run recorded). */
  run?: number | undefined;
  /** The server's clock as the run last saw it before the call (none in a journal of an earlier version). */
  clock?: ClockSeen | undefined;
}

export interface InstanceState {
  /** The name as the run resolved it when it started. */
  name?: string | undefined;
  started: boolean;
  /** When its last start was written, and that record's place in the journal (its order, never a clock). */
  startedAt?: number | undefined;
  startedSeq?: number | undefined;
  /** The last end record, and when the run it was written in started. */
  ended?: (EndRecord & { runAt: number }) | undefined;
  call?: CallState | undefined;
  /** Every attempt of every write of its last start, each with its fate (api/fate.ts): their join is its fate. */
  attempts: Attempt[];
  /** The step's attempts (retry:) its last start is known to have made: the last that sent a write (1 when none did). */
  tried: number;
  /** What its verifier read just before its last write left. */
  snapshot?: { value?: unknown; error?: string | undefined } | undefined;
  /** The operator's last decision about it, when no start came after. */
  decision?: DecisionRecord | undefined;
}

export interface JournalState {
  /** The run records of this release, oldest first (a resume appends one). */
  runs: RunRecord[];
  instances: Map<string, InstanceState>;
  lastAt: number;
  /** Where the release's rollout halted, unless the operator since said to go on. */
  halted?: { wave: number; reason: string } | undefined;
  /** The last run ended: its finish record is the journal's last (a killed or lost run's is not). */
  finished: boolean;
  /** Why the last run stopped before ending its steps, as its finish record says (a signal, or what stopped it). */
  stopped?: StepError | undefined;
  /** Its last line was torn (a run killed mid-write) and is left out: that line's number. */
  torn?: number | undefined;
  /** The operator's last word to go on past a halted wave (--continue-rollout). */
  continued?: { wave: number; by: string; at: number } | undefined;
  /** Every decision of the operator's about a parked run (enginectl decide), in order: every report shows them. */
  decided: OperatorDecision[];
  /** The waves of the last run's rollout, as it ended them. */
  rollout?: RolloutResult | undefined;
  /** The fleet lease the last run held, as its `lease` record says (a takeover's evidence and reason). */
  lease?: Extract<JournalRecord, { t: 'lease' }>['lease'] | undefined;
  /**
   * Where the last run parked, and the operator's decisions since (enginectl decide); undefined when it did not
   * park. A continue killed before it ended is still parked there: with the rollout as the run that parked ended it,
   * and when each run that went on from it started, after how many of those decisions (a timeout it acted on).
   */
  parked?: ParkedState | undefined;
  /** Every park of this release, in order, each with its decisions (journal/parks.ts); `parked` is the last while it stands. */
  parks: ParkedState[];
}
