// `enginectl decide`: an operator's decision about a parked run, on its evidence, appended to the
// run's journal in the store. What the park waits for is listed with what the run saw: for a value
// whose call is in doubt, verify's verdict of it (read-only); for a bake, what its park said, its
// time left on this machine's clock, and how a continue judges it (bake-listing.ts); the wave's
// budget left. A retry of an in-doubt call needs verify to say it was not applied
// (or the operator to accept a cannot-tell with a reason); every decision records who, when, why,
// and the evidence, and the in-doubt calls it settles get their decision records as a resume's.
// A later decision on a value replaces the earlier one (fresh verify, same gates); a run a runner
// holds now (a continue under way) is refused, JOURNAL_LOCKED.
import { operatorOf } from './journal-setup.ts';
import { openStoredRun } from './stored-run.ts';
import { abortOf, checkParked, inEffect, timeouts, type Parked } from './parked.ts';
import { UsageError } from '../errors.ts';
import { formatDuration } from '../duration.ts';
import { recordDecision, supersedes } from './decide-record.ts';
import { refuseWhileRunning } from './stored-run-held.ts';
import { readJournal, type JournalState } from '../journal/read.ts';
import { journalKey } from '../journal/seal.ts';
import { inDoubtInstances, type InDoubtInstance, type Verified } from '../journal/verify.ts';
import type { JournalRecord } from '../journal/records.ts';
import type { OperatorDecision } from '../runner/rollout-result.ts';
import { readFileSync } from 'node:fs';
import { storedWays } from '../ways-on.ts';
import { indentLines } from '../text/neutralise.ts';
import { bakeListing } from './bake-listing.ts';

export type DecisionKind = OperatorDecision['decision'];

export interface DecideRequest {
  url: string;
  runId: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  tmpdir: string;
  /** The run's clock (a bake's time left). */
  now: number;
  /** The command's stop: an S3 store's calls are cut once their grace after it ran out (storeAt). */
  signal?: AbortSignal | undefined;
  /** The decision, and the value it is about (retry, skip, exclude); none: list what the run waits for. */
  decision?: { kind: DecisionKind; value?: string | undefined } | undefined;
  reason?: string | undefined;
  acceptCannotTell?: boolean | undefined;
  /** decide --after D --then abort|continue: the decision takes effect D from now on the run's clock, unless decided before. */
  afterMs?: number | undefined;
  /** Reads the targets of in-doubt calls back (verify), for the instances given. */
  verify(state: JournalState, instances: readonly InDoubtInstance[]): Promise<Verified[]>;
  /** What masks the pipeline's secrets in what a decision records (its reason): the pipeline that wrote the run, read. */
  masking(state: JournalState): Promise<(text: string) => string>;
  /** Teaches the command's masker the pipeline's secrets before decisions kept are listed (a reason kept as given). */
  reading?(state: JournalState): Promise<void>;
  /** A fresh plan --live (GET requests only) of the instances of each value, as its lines; for the listing. */
  livePlan?(state: JournalState, values: readonly string[]): Promise<{ value: string; lines: string[] }[]>;
}

export interface DecideResult {
  runId: string;
  parked: Parked;
  /** Each thing it waits for, with its evidence (verify's verdicts included). */
  lines: string[];
  recorded?: OperatorDecision | undefined;
  /** The listing's fresh plan --live of each value waited on. */
  live?: { value: string; lines: string[] }[] | undefined;
}

// Its words name steps and quote verify's evidence: their further lines indented, as the edge prints no line of theirs.
const refuse = (message: string, hint: string): never => {
  throw new UsageError('DECISION_REFUSED', indentLines(message), { hint: indentLines(hint) });
};

/**
 * The in-doubt instances of a value of the rollout's key (all of the park's values for a wave
 * decision). A decision on a value reads them all, decided before or not: the later decision
 * replaces the earlier one, on fresh evidence, through the same gates. A wave's decision (continue)
 * leaves those already decided as they were decided (`decided: false`).
 */
function doubtsOf(state: JournalState, values: readonly string[], decided = true): InDoubtInstance[] {
  const over = state.rollout?.over;
  const planned = new Map(state.runs.flatMap((r) => r.instances).map((p) => [p.key, p]));
  return inDoubtInstances(state).filter((i) => {
    const v = over === undefined ? undefined : planned.get(i.key)?.matrix?.[over];
    return v !== undefined && values.includes(String(v)) && (decided || !state.instances.get(i.key)?.decision);
  });
}

export async function decide(request: DecideRequest): Promise<DecideResult> {
  const stored = await openStoredRun({
    url: request.url,
    resumeId: request.runId,
    cwd: request.cwd,
    env: request.env,
    tmpdir: request.tmpdir,
    now: request.now,
    signal: request.signal,
  });
  const key = journalKey(request.env);
  // The store's copy, laid locally: a record refused is the store's (its segment named), never a file to give.
  const read = readJournal(
    readFileSync(stored.path, 'utf8'),
    `run ${stored.runId}`,
    key,
    storedWays(stored.replica.at),
  );
  // A runner going on with the run holds it (its lease): it is not parked now, whatever its journal
  // said last. Its lapse is read on the run's clock (this machine's), request.now, as verify reads it.
  // A decision written into a live runner's journal cuts it: its lapse confirmed, a whole ttl past on this clock.
  await refuseWhileRunning(stored.store, stored.runId, read, 'decide', request.now, 'Nothing was recorded', {
    confirmed: true,
  });
  // The decisions in effect now on the run's clock (a timeout's only once its time came).
  const state = read.parked ? { ...read, parked: inEffect(read.parked, request.now) } : read;
  checkParked(state, `run ${stored.runId}`);
  const { park } = state.parked;
  const d = request.decision;
  const waited = park.waits.flatMap((w) => (w.value === null ? [] : [w.value]));
  // A bake's continue ends the bake: a call in doubt its park also waits on needs a decision of its own.
  const values = d?.value !== undefined ? [d.value] : d?.kind === 'continue' && park.for !== 'bake' ? waited : [];
  const again = d?.value !== undefined || !d;
  const verified = await request.verify(state, doubtsOf(state, d ? values : waited, again));
  const verdicts = (value: string) =>
    verified.filter((v) => doubtsOf(state, [value], again).some((i) => i.key === v.key));
  const lines = park.waits.map((w) => {
    const evidence = [...w.evidence];
    // The park's evidence kept (which clock), this machine's reading said as its own, and how a continue judges it.
    if (park.for === 'bake' && park.until !== undefined && w.value === null)
      evidence.splice(0, 1, ...bakeListing(state.parked, evidence[0] ?? '', request.now));
    if (w.value !== null)
      for (const v of verdicts(w.value))
        evidence.push(`verify: "${v.name}" (${v.doubt.method} ${v.doubt.path}): ${v.verdict}: ${v.evidence}`);
    return `${w.what}: ${evidence.join('; ')}`;
  });
  for (const timeout of timeouts(read.parked!, request.now)) lines.push(`decided with a timeout: ${timeout}`);
  if (state.parked.decided.some((prior) => prior.reason)) await request.reading?.(state);
  for (const prior of state.parked.decided)
    lines.push(
      `decided: ${prior.decision}${prior.value === null ? '' : ` ${prior.value}`} (${prior.by}, ${new Date(prior.at).toISOString()})${prior.reason ? `: ${prior.reason}` : ''}`,
    );
  if (!d) {
    const live = waited.length > 0 ? await request.livePlan?.(state, waited) : undefined;
    return { runId: stored.runId, parked: state.parked, lines, live };
  }

  if (abortOf(state.parked)) refuse(`run ${stored.runId} was aborted`, 'nothing more is decided about it');
  if (d.value !== undefined && !waited.includes(d.value))
    refuse(
      `--${d.kind} ${d.value}: run ${stored.runId} waits for no decision on ${d.value}${waited.length ? ` (it waits on ${waited.join(', ')})` : ''}`,
      'enginectl decide --store URL --run ID lists what it waits for',
    );
  // The decision in the words given: a timed one is --after D --then KIND.
  const said =
    request.afterMs === undefined ? `--${d.kind}` : `--after ${formatDuration(request.afterMs)} --then ${d.kind}`;
  // A window is not the operator's to decide: it opens on the run's clock, or a freeze is overridden, recorded.
  if (park.for === 'window' && d.kind !== 'abort')
    refuse(
      `${said}: run ${stored.runId} waits for its window (${park.reason}), not a decision`,
      `run FILE --store URL --continue ${stored.runId} at or after ${park.until === undefined ? 'its opening' : new Date(park.until).toISOString()}, or with --override-freeze --reason "..." as an identity the pipeline allows; decide --abort ends it`,
    );
  if (park.for === 'bake' && d.value === undefined && d.kind !== 'continue' && d.kind !== 'abort')
    refuse(
      `${said}: run ${stored.runId} waits for a bake, not a decision on a value`,
      'decide --continue to end the bake now, or --abort; a value whose call is in doubt is decided with --retry, --skip or --exclude VALUE',
    );
  const by = operatorOf(request.env);
  const evidence: string[] = supersedes(state.parked, d.value);
  const records: JournalRecord[] = [];
  for (const value of values) {
    for (const v of verdicts(value)) {
      evidence.push(`verify: "${v.name}": ${v.verdict}: ${v.evidence}`);
      // Not sent again unless retried: skip, exclude and continue leave the call as the run left it.
      const decision = d.kind === 'retry' ? 'retry' : 'skip';
      if (decision === 'retry' && v.verdict === 'applied')
        refuse(
          `--retry ${value}: verify read "${v.name}" as applied (${v.evidence}): sending it again would apply it twice`,
          `decide --skip ${value} (it was applied), or --exclude ${value}`,
        );
      if (decision === 'retry' && v.verdict === 'cannot-tell' && !(request.acceptCannotTell && request.reason?.trim()))
        refuse(
          `--retry ${value}: verify cannot tell whether "${v.name}" was applied (${v.evidence})`,
          'check on the server; then --retry with --accept-cannot-tell --reason "what you checked" (recorded), or --skip / --exclude',
        );
      // Going on without it (exclude, continue) says nothing of its fate: applied only on verify's word.
      const left = decision === 'skip' && d.kind !== 'skip' && v.verdict !== 'applied';
      records.push({
        t: 'decision',
        key: v.key,
        decision,
        ...(left ? { leftInDoubt: true as const } : {}),
        by,
        at: request.now,
        verdict: v.verdict,
        evidence: v.evidence,
        method: v.doubt.method,
        path: v.doubt.path,
      });
    }
  }
  if (park.for === 'bake' && park.until !== undefined)
    evidence.push(
      park.until > request.now
        ? `${formatDuration(park.until - request.now)} of the bake left on the deciding machine's clock`
        : "the bake elapsed on the deciding machine's clock",
    );
  // The wave's own wait (a failed analysis, a budget passed) is what a wave's decision is made on; a bake's time left is said above.
  evidence.push(
    ...park.waits
      .filter((w) => w.value === null || values.includes(w.value))
      .flatMap((w) =>
        w.evidence.filter(
          (e) =>
            e.startsWith("the wave's budget") || (w.value === null && d.value === undefined && park.for === 'decision'),
        ),
      ),
  );
  // The operator's words may hold a secret (a token rotated): masked before they are kept or said.
  const reason = request.reason?.trim() ? (await request.masking(state))(request.reason.trim()) : undefined;
  const recorded: OperatorDecision = {
    decision: d.kind,
    value: d.value ?? null,
    wave: park.wave,
    by,
    at: request.now,
    reason: reason || null,
    evidence: [...new Set(evidence)],
    ...(request.afterMs === undefined ? {} : { after: request.now + request.afterMs }),
  };
  records.push({ t: 'decide', ...recorded });
  await recordDecision(stored, key, records);
  return { runId: stored.runId, parked: state.parked, lines, recorded };
}
