// The PATH of `enginectl api` as given: refused where a URL parser would call another path than it says.
import { UsageError } from '../errors.ts';
import { hasDotSegment } from '../api/dot-segments.ts';

/**
 * Why a URL parser would call another path than PATH says, if it would: a space or a control it
 * drops or encodes (a tab inside `.\t.` makes `..`); a dot segment (also written %2e) is resolved
 * away, so /api/../x calls /x; //host names a host, dropped here; a fragment is never sent; a
 * backslash is read as a slash.
 */
function rewrittenPath(target: string): string | undefined {
  const path = target.split('?')[0]!;
  // A tab or a line break anywhere, or blanks at the end, are dropped; in the path, a space or a control is encoded.
  // eslint-disable-next-line no-control-regex
  if (/[\t\n\r]|[\u0000-\u0020]$/.test(target) || /[\u0000-\u0020\u007f]/.test(path))
    return 'holds a space or a control character, which a URL parser drops or encodes: write it %-encoded (%20 for a space)';
  if (path.startsWith('//'))
    return 'starts with //, which names a host: the server of ENGINE_URL would be called on another path';
  if (target.includes('#')) return 'holds a #: a fragment is never sent';
  if (path.includes('\\')) return 'holds a backslash, which a URL reads as /';
  if (hasDotSegment(path))
    return 'holds a . or .. segment (or %2e): it would be resolved away, and another path called';
  return undefined;
}

/** PATH refused (BAD_ARGUMENTS) where a URL parser would call another path than it says. */
export function refuseRewrittenPath(target: string): void {
  const rewritten = rewrittenPath(target);
  if (rewritten)
    throw new UsageError('BAD_ARGUMENTS', `api: PATH ${JSON.stringify(target)} ${rewritten}; nothing was sent`, {
      hint: 'write the path as the server is to read it, e.g. /api/monitoring/v1/engines (a ?query is kept)',
    });
}
