// Where a call in doubt went: the URL (masked) of its server as the run that sent it recorded it
// (its run record's servers). A call's fate is read only there: another server's "not applied"
// says nothing of the call, and a retry on it would send an applied write again. Every reader of
// calls in doubt compares the URL it would read with it: verify and decide refuse the pipeline
// (app/run-pipeline.ts againstRun), a resume's verify and a takeover's say the call cannot be
// told (app/verify.ts).
import { calledAt } from '../api/called-at.ts';
import type { JournalState } from './read.ts';

/**
 * How the server `name`, at `url` here (masked as the run masked it), is not where the call in
 * doubt of instance `key` was sent, in words; undefined when it is, or no run recorded the server.
 */
export function serverMoved(state: JournalState, key: string, name: string, url: string): string | undefined {
  const sent = state.runs[state.instances.get(key)?.call?.run ?? -1] ?? state.runs.at(-1);
  const then = sent?.servers[name];
  // As its client calls it: a trailing slash, the scheme's and host's case, a default port are one place.
  return then === undefined || then === url || calledAt(then) === calledAt(url)
    ? undefined
    : `server ${name} is ${url} here, ${then} in the run that sent its call in doubt`;
}

/** A call in doubt whose server is not where it was sent: not read, "cannot tell" (journal/verify.ts). */
export class ServerMoved extends Error {
  constructor(moved: string) {
    super(
      `${moved}: it is not read there, for another server says nothing of the call: give the server's URL as that run had it (what the URL reads from the environment, the run's --var values, its file), or check on the server the call was sent to, then decide (skip or retry)`,
    );
  }
}
