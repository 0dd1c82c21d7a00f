// A path segment `.` or `..` (an entity id so written, or read from an answer) is one every URL
// parser removes, `%2E` spelt too: `DELETE …/classes/12/entities/..` would leave as
// `DELETE …/classes/12/`, another resource than the one the step names and the journal records.
// Such a call is refused before it leaves.
import { ApiError } from './errors.ts';

/** A `.` or `..` segment, as the URL standard reads one (`%2e` for a dot, in any case). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/** The path part of a path that may carry a query or a fragment: the only part a URL parser resolves segments in. */
function pathPart(path: string): string {
  return path.split(/[?#]/, 1)[0]!;
}

/** The refusal of a request whose path holds a dot segment, or undefined when it holds none. */
export function dotSegmentRefusal(req: { method: string; path: string }, server: string): ApiError | undefined {
  if (!DOT_SEGMENT.test(pathPart(req.path))) return undefined;
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
