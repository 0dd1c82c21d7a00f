// `enginectl verify` and `run --resume --in-doubt verify`: each in-doubt call of a journal decided
// by reading its target back, where the API allows it (steps/verify-*.ts), with the evidence. A
// step type without a verifier (update/vfs, replication/sync, transaction-log/clear) cannot be
// verified through the API: the operator decides, as without verify.
import { MASK } from '../text/mask.ts';
import type { EngineClient } from '../api/index.ts';
import { UsageError } from '../errors.ts';
import type { Decision, InDoubtCall } from '../runner/result.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { Verdict } from '../steps/types.ts';
import type { Combination } from '../pipeline/selection.ts';
import type { JournalState } from './read.ts';
import { doubtOf, standingDecision } from './doubt.ts';
import { SEND_WITHIN_MS } from './send-bound.ts';
import { provenNotApplied } from './not-applied.ts';
import { ServerMoved } from './sent-server.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export interface InDoubtInstance {
  key: string;
  /** Its step's index in the file that wrote the journal. */
  step: number;
  name: string;
  uses: string;
  server: string | undefined;
  /** Its matrix values, as its run planned it ({} for a step without a matrix). */
  matrix: Combination;
  doubt: InDoubtCall;
}

export interface Verified extends InDoubtInstance, Verdict {}

/** The instances of the journal's release whose last write is in doubt, in plan order. */
export function inDoubtInstances(state: JournalState): InDoubtInstance[] {
  // Every run's plan: an instance a later resume did not select keeps the doubt an earlier run left.
  const planned = [...new Map(state.runs.flatMap((r) => r.instances).map((p) => [p.key, p])).values()];
  return planned.flatMap((p) => {
    const instance = state.instances.get(p.key);
    const doubt = doubtOf(instance);
    return doubt
      ? [
          {
            key: p.key,
            step: p.step,
            name: instance?.name ?? p.name,
            uses: p.uses,
            server: p.server,
            matrix: p.matrix ?? {},
            doubt,
          },
        ]
      : [];
  });
}

/**
 * The servers verify reads: those of the in-doubt instances whose type it can verify (the others
 * are "cannot tell" unread). Only their URLs and credentials are asked of the environment.
 */
export function serversToRead(instances: readonly InDoubtInstance[]): Set<string> {
  return new Set(
    instances.flatMap((i) => (i.server !== undefined && STEP_TYPES.get(i.uses)?.verify ? [i.server] : [])),
  );
}

/**
 * Reads each in-doubt instance's target. `clientFor` gives the client of the instance's server
 * (throws when it cannot be built; ServerMoved when it is not where the call was sent: never read
 * elsewhere); a read that fails is "cannot tell", with why.
 */
export async function verifyInDoubt(
  state: JournalState,
  clientFor: (instance: InDoubtInstance) => EngineClient,
  now: () => number,
  signal: AbortSignal,
  mask: (text: string) => string,
  /** The `longest:` of the instance's step in the pipeline read now: found by its identity (its key), never by its place. */
  longestOf: (instance: InDoubtInstance) => number | undefined = () => undefined,
): Promise<Verified[]> {
  const out: Verified[] = [];
  for (const instance of inDoubtInstances(state)) {
    const verifier = STEP_TYPES.get(instance.uses)?.verify;
    const record = state.instances.get(instance.key);
    const call = record?.call;
    let verdict: Verdict;
    // Answered 2xx and read by a step that then failed, as its end says: the server applied it, and
    // reading the target back adds nothing (an entity deleted since is no proof of the contrary).
    // Nor does verify decide it: "applied" would let --in-doubt verify go on past the step's own
    // failure (its check of that answer) with no one's word. The operator decides: skip or retry.
    // So is one whose run ended before the step's result was recorded (killed): the journal holds its 2xx.
    if (instance.doubt.applied)
      verdict = {
        verdict: 'cannot-tell',
        evidence: record?.ended
          ? `answered ${instance.doubt.status} and the answer was read: the server applied it, and the step failed on it or after it; verify does not decide a step's own failure: skip keeps it as applied, retry sends it again`
          : `answered ${instance.doubt.status}: the server applied it, and the run ended before the step's result was recorded; verify does not decide what the step made of it: skip keeps it as applied, retry sends it again`,
      };
    else if (!verifier)
      verdict = {
        verdict: 'cannot-tell',
        evidence: `${/^[aeiou]/.test(instance.uses) ? 'an' : 'a'} ${instance.uses} cannot be verified through the API: check on the server, then decide (skip or retry)`,
      };
    else if (!call)
      verdict = { verdict: 'cannot-tell', evidence: 'the journal holds no record of the call as it was sent' };
    // Read back at the masked path, a 404 would read as "gone": the target is not known.
    else if (call.path.includes(MASK))
      verdict = {
        verdict: 'cannot-tell',
        evidence: `the path the journal kept is masked (${call.path}: a secret was in it), so the target cannot be read back: check on the server, then decide (skip or retry)`,
      };
    else {
      try {
        const at = now();
        const recorded = {
          method: call.method,
          path: call.path,
          body: call.body,
          at: call.at,
          leftBy: call.at + SEND_WITHIN_MS,
        };
        const client = clientFor(instance);
        verdict = provenNotApplied(
          await verifier.check(client, recorded, record.snapshot?.value, at, signal),
          { ...recorded, clock: call.clock },
          at,
          longestOf(instance),
          // The server's clock as the answers to the check's reads showed it: the one the run's and this machine's share.
          client.serverClock(),
        );
        if (record.snapshot?.error && verdict.verdict === 'cannot-tell')
          verdict = {
            ...verdict,
            evidence: `${verdict.evidence} (reading the target before the call failed: ${record.snapshot.error})`,
          };
      } catch (error) {
        if (signal.aborted) throw error;
        const why = (error as Error).message;
        verdict = {
          verdict: 'cannot-tell',
          evidence: error instanceof ServerMoved ? why : `reading the target failed: ${why}`,
        };
      }
    }
    out.push({ ...instance, verdict: verdict.verdict, evidence: mask(verdict.evidence) });
  }
  return out;
}

/** The in-doubt instances no operator has decided about: what a new run on the journal would send again. */
export function undecidedInDoubt(state: JournalState): InDoubtInstance[] {
  return inDoubtInstances(state).filter((i) => !standingDecision(state.instances.get(i.key)));
}

const line = (v: Verified) => `"${v.name}" (${v.doubt.method} ${v.doubt.path}): ${v.verdict}: ${v.evidence}`;

/**
 * The operator's decisions from what verify read: applied -> not sent again; not applied -> sent
 * again only when the operator allowed it (verify-and-retry); cannot tell -> the run is refused
 * before anything is sent, with every verdict, for the operator to decide.
 */
export function verifiedDecisions(
  verified: readonly Verified[],
  options: { retryNotApplied: boolean; by: string; at: number; ways?: WaysOn },
): Map<string, Decision> {
  const ways = options.ways ?? CLI_WAYS;
  const open = verified.filter(
    (v) => v.verdict === 'cannot-tell' || (v.verdict === 'not-applied' && !options.retryNotApplied),
  );
  if (open.length > 0) {
    const notApplied = open.every((v) => v.verdict === 'not-applied');
    const unsettled = new VerifyUnsettled(
      'RESUME_REFUSED',
      `cannot resume: verify could not settle ${open.length === 1 ? 'an in-doubt call' : `${open.length} in-doubt calls`}: ${open.map(line).join('; ')}`,
      {
        hint: notApplied
          ? `resume with ${ways.inDoubt('verify-and-retry')} to send again what was not applied`
          : `check on the server, then resume with ${ways.inDoubt('skip')} (it was applied) or ${ways.inDoubt('retry')} (it was not)`,
      },
    );
    unsettled.notApplied = notApplied;
    unsettled.open = open;
    throw unsettled;
  }
  return new Map(
    verified.map((v) => [
      v.key,
      {
        decision: v.verdict === 'applied' ? 'skip' : 'retry',
        by: options.by,
        at: options.at,
        verdict: v.verdict,
        evidence: v.evidence,
      },
    ]),
  );
}

/** Verify could not settle a call left in doubt: a resume is refused until the operator decides (a shard's site fails, for an operator). */
export class VerifyUnsettled extends UsageError {
  /** Every call it could not settle was read not applied (a verify-and-retry would send it again). */
  notApplied = false;
  /** What reading each call it could not settle found. */
  open: readonly Verified[] = [];
}
