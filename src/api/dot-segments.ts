// A path segment `.` or `..` (an entity id so written, or read from an answer) is one every URL
// parser removes, `%2E` spelt too: `DELETE …/classes/12/entities/..` would leave as
// `DELETE …/classes/12/`, another resource than the one the step names and the journal records.
// Such a call is refused before it leaves.
import { ApiError } from './errors.ts';

/** A `.` or `..` segment, as the URL standard reads one (`%2e` for a dot, in any case). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

// eslint-disable-next-line no-control-regex
const ENDING_BLANKS = /[\u0000-\u0020]+$/;

/**
 * The path part of a path as a URL parser reads it: a tab or a line break anywhere dropped, white
 * space and controls at its end trimmed (the end of the URL), a back slash a slash (an http(s)
 * URL), and only what comes before a query or a fragment (the only part whose segments it
 * resolves). So `/api/.\t./x` and `/api\\..\\x` are read as `/api/../x`.
 */
function pathAsParsed(path: string): string {
  return path
    .replace(/[\t\n\r]/g, '')
    .replace(ENDING_BLANKS, '')
    .replace(/\\/g, '/')
    .split(/[?#]/, 1)[0]!;
}

/** Whether a URL parser would remove a `.` or `..` segment of `path` (written, %2e, or hidden by what it drops). */
export function hasDotSegment(path: string): boolean {
  return DOT_SEGMENT.test(pathAsParsed(path));
}

/** The refusal of a request whose path holds a dot segment, or undefined when it holds none. */
export function dotSegmentRefusal(req: { method: string; path: string }, server: string): ApiError | undefined {
  if (!hasDotSegment(req.path)) return undefined;
  return new ApiError(
    'API_BAD_PATH',
    `${req.method} ${req.path} on ${server}: not sent: a path segment . or .. would be removed from the URL, and the request would reach another resource`,
    {
      method: req.method,
      path: req.path,
      hint: 'an id of . or .. names no entity the API can be asked for: check where the value came from',
    },
  );
}
