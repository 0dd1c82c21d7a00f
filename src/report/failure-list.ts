// The summary's list of failed, cancelled and in-doubt steps: its heading says what let them pass
// under a success (continue-on-error, the operator's decision of a doubt: each only where it did),
// and each item what went wrong and what to do. A write the operator decided (--in-doubt skip, or
// verify reading it applied) is not sent again: its item says the decision, and the error its call
// got before it is that call's past, never advice for now.
import { treatedAsApplied } from '../runner/result.ts';
import { cell, codeSpan } from '../text/escape.ts';
import type { WaysOn } from '../ways-on.ts';
import { doubtNote, type ReportStep } from './model.ts';

/** A write the operator's word kept from being sent again (treated as applied, or left in doubt to go on without it). */
export const notSentAgain = (s: Pick<ReportStep, 'decision' | 'outcome'>): boolean =>
  s.decision?.decision === 'skip' && s.outcome === 'skipped';

/** What its error is to a step not sent again: its call's, before the decision, and no advice for now. */
const PAST_ERROR = "its call's error, before the decision";

/** A step's error as every report says it, or undefined: of a write not sent again, its call's past error, no hint. */
export function errorWords(
  s: Pick<ReportStep, 'decision' | 'outcome' | 'error'>,
): { message: string; hint?: string } | undefined {
  if (!s.error) return undefined;
  if (notSentAgain(s)) return { message: `${PAST_ERROR}: ${s.error.message}` };
  return s.error.hint ? { message: s.error.message, hint: s.error.hint } : { message: s.error.message };
}

const CONTINUED = 'continue-on-error';
const DECIDED = "the operator's decision";

/** What let a listed step pass under a success: the operator's decision of its doubt, or its continue-on-error. */
function passedBy(s: ReportStep): string | undefined {
  // A doubt is never passed by continue-on-error: a step that has it and was decided passed on the decision.
  if (treatedAsApplied(s)) return DECIDED;
  return s.continuedOnError ? CONTINUED : undefined;
}

/**
 * The list's heading: under a success, what let them pass when each listed step has a reason;
 * when one has none, the heading names none and each item its own (`named` false: items say it).
 */
export function failuresHeading(
  title: string,
  steps: readonly ReportStep[],
  success: boolean,
): { heading: string; named: boolean } {
  const reasons = steps.map(passedBy);
  if (!success || reasons.includes(undefined)) return { heading: title, named: !success };
  const named = [CONTINUED, DECIDED].filter((r) => reasons.includes(r)).join(' or ');
  return { heading: `${title} (${named} let them pass)`, named: true };
}

/** One step's item: what went wrong and what to do, or the operator's decision and the call's error before it. */
export function failureItem(s: ReportStep, named: boolean, ways?: WaysOn): string {
  const head = `- **${cell(s.name)}** (${codeSpan(s.uses)})`;
  const e = errorWords(s);
  if (notSentAgain(s))
    return [`${head}: ${cell(doubtNote(s, ways))}`, ...(e ? [`  - ${cell(e.message)}`] : [])].join('\n');
  // Under a success whose heading does not name what let it pass, the item does.
  const tag = s.continuedOnError && !named ? ` (${CONTINUED})` : '';
  return [
    `${head}${tag}: ${cell(e?.message ?? s.outcome)}`,
    ...(e?.hint ? [`  - what to do: ${cell(e.hint)}`] : []),
  ].join('\n');
}
