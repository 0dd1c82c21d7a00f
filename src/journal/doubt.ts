// An instance's doubt as its journal tells it: whether a write of its last start is in doubt (and
// which), and the operator's decision about it that still stands.
import { stepDoubt } from '../api/index.ts';
import type { Decision, InDoubtCall } from '../runner/result.ts';
import type { InstanceState } from './read.ts';

/**
 * Whether an instance is in doubt, and about which call (api/fate.ts stepDoubt). Its end says so when it
 * ended (the run saw every answer, and whether each could be read); otherwise (the run was killed) the
 * journal's attempts decide, and a write answered 2xx whose result was never recorded is in doubt too.
 */
export function doubtOf(state: InstanceState | undefined): InDoubtCall | undefined {
  if (!state) return undefined;
  if (!state.ended) return stepDoubt(state.attempts);
  const { run } = state.ended;
  // A step that failed with a write applied: in doubt. A journal of an earlier version ended it with no
  // doubt; its attempts say so (an update it read refused in its body is in doubt too: the cautious side).
  return run.inDoubt ?? (run.outcome === 'failure' || run.continuedOnError ? stepDoubt(state.attempts) : undefined);
}

/**
 * The operator's decision about an instance's doubt that still stands: one recorded since its last start,
 * or a "treat as applied" its end carries. A decision to send again was acted on once the instance ran
 * after it: the doubt that run left is undecided. One that left it in doubt to go on without it
 * (decide --exclude, --continue) stands only for the run going on from that park.
 */
export function standingDecision(state: InstanceState | undefined, goingOn = false): Decision | undefined {
  const d = state?.decision ?? (state?.ended?.run.decision?.decision === 'skip' ? state.ended.run.decision : undefined);
  if (d?.leftInDoubt && !goingOn) return undefined;
  return (
    d && {
      decision: d.decision,
      by: d.by,
      at: d.at,
      verdict: d.verdict,
      evidence: d.evidence,
      ...(d.leftInDoubt ? { leftInDoubt: true as const } : {}),
    }
  );
}
