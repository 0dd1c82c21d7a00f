// A write's window verdict as every report line shows it (the summary's step rows, the HTML
// report's): fits, would overrun by N, frozen until T, no window open; overridden by X for
// "reason"; the time it waited (for quiet, or since its run parked); the next window it fits in.
import { formatDuration } from '../duration.ts';
import type { ReportStep } from './model.ts';

/** "window: would overrun by 14m, overridden by alice for "INC-42"", or '' for a step without a verdict. */
export function windowNote(step: Pick<ReportStep, 'window'>): string {
  const w = step.window;
  if (!w) return '';
  const parts: string[] = [];
  if (w.verdict === 'fits')
    parts.push(w.windowEnd ? `fits (the window ends ${w.windowEnd})` : 'fits (no window; no freeze)');
  else if (w.verdict === 'overrun') {
    const by = w.windowEnd === undefined ? undefined : Date.parse(w.at) + w.needMs - Date.parse(w.windowEnd);
    parts.push(`would overrun by ${by === undefined || !Number.isFinite(by) ? '?' : formatDuration(by)}`);
  } else if (w.verdict === 'frozen') parts.push(`frozen by ${w.freeze ?? 'a freeze'} until ${w.frozenUntil ?? '?'}`);
  else parts.push('no window open');
  if (w.override) parts.push(`overridden by ${w.override.by} for "${w.override.reason}"`);
  if (w.waitedMs) parts.push(`waited ${formatDuration(w.waitedMs)}`);
  if (w.staying?.length) parts.push(`not quiet: ${w.staying.join(', ')}`);
  if (!w.override && w.verdict !== 'fits')
    parts.push(w.next ? `next fits at ${w.next}` : 'no window within 400 days fits');
  return `window: ${parts.join('; ')}`;
}
