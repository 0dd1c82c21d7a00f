// Where a call in doubt went: the URL (masked) of its server as the run that sent it recorded it
// (its run record's servers). A call's fate is read only there: another server's "not applied"
// says nothing of the call, and a retry on it would send an applied write again. Every reader of
// calls in doubt compares the URL it would read with it: verify and decide refuse the pipeline
// (app/run-pipeline.ts againstRun), a resume's verify and a takeover's say the call cannot be
// told (app/verify.ts).
//
// A place that holds a secret (url: ${{ secrets.ENGINE_URL }}) reads *** masked whatever server it
// names: compared masked, every server is the run's. With ENGINECTL_JOURNAL_KEY the run recorded
// the key's fingerprint of the place (records.ts places), and the place here is told by it; without
// the key, or with another, it cannot be told, and no server is read. The fingerprint is the same
// in every run under one key (no salt of the run's: the key keeps it from a guess), so that a
// server's write durations are told by it too (cli/window-options.ts, app/server-places.ts).
import { calledAt } from '../api/called-at.ts';
import { MASK } from '../text/mask.ts';
import { fingerprint, keyCheck, type FingerprintKey } from './fingerprint.ts';
import type { JournalState } from './read.ts';
import { JOURNAL_KEY_VARIABLE } from './seal.ts';

type Places = NonNullable<JournalState['runs'][number]['places']>;

/** Whether a server's place (its URL as masked) holds a secret: it reads the same whatever server it names. */
export const placeHidden = (masked: string): boolean => calledAt(masked).includes(MASK);

/** The key of places' fingerprints: the journal's key alone (a saved plan's and a manifest's have a salt, never empty). */
const placeKey = (key: string): FingerprintKey => ({ key, salt: '' });

/** The key's fingerprint of the place of a server at `url` (unmasked): the same in every run under the key. */
export const placeId = (key: string, url: string): string => fingerprint(placeKey(key), calledAt(url));

/** A run record's places: of each server whose place holds a secret, the key's fingerprint; none without the key or such a server. */
export function secretPlaces(
  servers: Iterable<{ name: string; url: string; masked: string }>,
  key: string | undefined,
): { places?: Places } {
  const hidden = [...servers].filter((s) => placeHidden(s.masked));
  if (key === undefined || hidden.length === 0) return {};
  const called = Object.fromEntries(hidden.map((s) => [s.name, placeId(key, s.url)]));
  return { places: { keyCheck: keyCheck(placeKey(key)), called } };
}

/** The server `name` here: its URL masked as the run masked it, and unmasked (only fingerprinted, never written). */
export interface ServerHere {
  name: string;
  masked: string;
  url: string;
}

/** A resolved server as the readers of calls in doubt compare it: masked with the run's masker. */
export const serverHere = (server: { name: string; url: string }, mask: (text: string) => string): ServerHere => ({
  name: server.name,
  url: server.url,
  masked: mask(server.url),
});

/**
 * How the server here is not where the call in doubt of instance `key` was sent, in words, or
 * cannot be told to be (`untold`: its place a secret the journal keeps no fingerprint of, or one
 * under another key); undefined when it is, or no run recorded the server. `journalKey`: the key
 * here. A server moved is another run's pipeline (verify and decide refuse it); one untold is the
 * run's as far as anything says, and its calls are cannot-tell.
 */
export function serverMoved(
  state: JournalState,
  key: string,
  here: ServerHere,
  journalKey: string | undefined,
): { words: string; untold: boolean } | undefined {
  const sent = state.runs[state.instances.get(key)?.call?.run ?? -1] ?? state.runs.at(-1);
  const { name, masked: url } = here;
  const then = sent?.servers[name];
  if (sent === undefined || then === undefined) return undefined;
  const place = sent.places?.called[name];
  if (place !== undefined) {
    if (journalKey === undefined || keyCheck(placeKey(journalKey)) !== sent.places!.keyCheck)
      return untold(
        `server ${name}'s URL is a secret, told by the fingerprint the run that sent its call in doubt kept under ${JOURNAL_KEY_VARIABLE}, ${journalKey === undefined ? 'which is not set here' : 'and the key here is another'}`,
      );
    return placeId(journalKey, here.url) === place
      ? undefined
      : moved(
          `server ${name} is not where the run that sent its call in doubt had it (its URL, a secret, has another fingerprint under ${JOURNAL_KEY_VARIABLE})`,
        );
  }
  if (placeHidden(then))
    return untold(
      `server ${name}'s URL is a secret (${then} in the run that sent its call in doubt), and that run kept no fingerprint to tell its server by (${JOURNAL_KEY_VARIABLE} was not set; set it for the runs to come)`,
    );
  // As its client calls it: a trailing slash, the scheme's and host's case, a default port are one place.
  return then === url || calledAt(then) === calledAt(url)
    ? undefined
    : moved(`server ${name} is ${url} here, ${then} in the run that sent its call in doubt`);
}

const moved = (words: string) => ({ words, untold: false });
const untold = (words: string) => ({ words, untold: true });

/** A call in doubt whose server is not where it was sent: not read, "cannot tell" (journal/verify.ts). */
export class ServerMoved extends Error {
  constructor(moved: string) {
    super(
      `${moved}: it is not read there, for another server says nothing of the call: give the server's URL as that run had it (what the URL reads from the environment, the run's --var values, its file), or check on the server the call was sent to, then decide (skip or retry)`,
    );
  }
}
