// What the operator says of the calls a run left in doubt (--in-doubt, the action's in-doubt
// input): decide them all (skip: applied; retry: send again), or read their targets first.
import { UsageError } from '../errors.ts';

export type InDoubtDecision = 'retry' | 'skip';
/** What the operator says of in-doubt calls: decide them all, or read their targets first. */
export type InDoubtMode = InDoubtDecision | 'verify' | 'verify-and-retry';
export const IN_DOUBT_MODES: readonly InDoubtMode[] = ['retry', 'skip', 'verify', 'verify-and-retry'];

/** --in-doubt, or the action's in-doubt input, checked. */
export function parseInDoubt(
  value: string,
  where: string,
  code: 'BAD_ARGUMENTS' | 'BAD_INPUT' = 'BAD_ARGUMENTS',
): InDoubtMode {
  if ((IN_DOUBT_MODES as readonly string[]).includes(value)) return value as InDoubtMode;
  throw new UsageError(code, `${where} ${value}: say ${IN_DOUBT_MODES.join(', ')}`, {
    hint: 'skip takes the call as applied; retry sends it again; verify reads the target and skips what was applied; verify-and-retry also sends again what was not',
  });
}
