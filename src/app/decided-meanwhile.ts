// A continue whose fence failed because an operator's decision was recorded after it read the run:
// decide found the run's own lease free before this runner took it, and its segment reached the
// store after this runner read the journal. Not a runner still writing, nor a store failure: the
// decision is named (which, by whom, why), nothing was sent, and what to do is said. An abort
// ends the run (NOT_PARKED, exit 2: nothing to continue); any other decision leaves the run parked
// with it in force (exit 75): the same command again goes on as it says.
import { EnginectlError, ExitCode, UsageError } from '../errors.ts';
import { decodeJournal } from '../journal/frame.ts';
import { readSegments } from '../journal/replica.ts';
import type { OperatorDecision } from '../runner/rollout-result.ts';
import type { RunStore } from '../store/store.ts';

/** The run is still parked, a decision recorded meanwhile in force: the same command again goes on (exit 75, as a park). */
export class DecidedMeanwhile extends EnginectlError {
  readonly code = 'ROLLOUT_PARKED';
  readonly exitCode = ExitCode.parked;
}

type Decided = OperatorDecision & { t: 'decide' };

const isDecision = (v: unknown): v is Decided =>
  typeof v === 'object' && v !== null && (v as { t?: unknown }).t === 'decide';

/** A decision in words: `abort by WHO: REASON`, `skip site-002 by WHO`, `abort from TIME by WHO`. */
const inWords = (d: Decided) =>
  `${d.decision}${d.value ? ` ${d.value}` : ''}${d.after === undefined ? '' : ` from ${new Date(d.after).toISOString()}`} by ${d.by}${d.reason ? `: ${d.reason}` : ''}`;

/**
 * The refusal of a continue whose fence found an operator's decision put since this runner read
 * the journal (the segments from the one the fence meant to take); undefined when what was put is
 * no decision (a runner that held the run before still writes), or the store cannot be read now.
 */
export async function decidedMeanwhile(stored: {
  store: RunStore;
  runId: string;
  /** The fence's segment: those before it are what this runner read. */
  replica: { position: number };
}): Promise<EnginectlError | undefined> {
  let read: Awaited<ReturnType<typeof readSegments>>;
  try {
    read = await readSegments(stored.store, stored.runId);
  } catch {
    return undefined;
  }
  const known = read.segments.slice(0, stored.replica.position - 1).reduce((n, s) => n + s.lines, 0);
  const since = decodeJournal(read.text).lines.filter((l) => l.line > known);
  const decided = since.map((l) => l.value).filter(isDecision);
  // A runner's records among them (or none put, a fence alone): not a decide's segment.
  if (decided.length === 0 || since.some((l) => !isDecision(l.value) && !fromDecide(l.value))) return undefined;
  const words = decided.map(inWords).join('; ');
  const message = `run ${stored.runId}: an operator's decision was recorded after this runner read the run (${words}): nothing was sent`;
  if (decided.some((d) => d.decision === 'abort' && d.after === undefined))
    return new UsageError('NOT_PARKED', message, {
      hint: `the run is aborted: nothing to continue (enginectl report --store URL --run ${stored.runId} says where it stands); roll out again with a new run`,
    });
  return new DecidedMeanwhile(message, {
    hint: `run the same command again: it goes on as that decision says (enginectl decide --store URL --run ${stored.runId} lists what is decided)`,
  });
}

/** A record decide writes with its decision besides the `decide` record: a call in doubt decided (its `decision` record). */
const fromDecide = (v: unknown) => typeof v === 'object' && v !== null && (v as { t?: unknown }).t === 'decision';
