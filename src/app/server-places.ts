// Where a run calls each of its servers, in the words its run record keeps them: the URL as the
// environment, the --var values and the file resolve it, masked as the run masks it, read as its
// client calls it (api/called-at.ts: a trailing slash, the scheme's and host's case are one place).
// Earlier write durations are a server's at its place (cli/window-options.ts): another pipeline's
// `prod`, or this one's under other --var values, elsewhere is another server, whose writes say
// nothing of how long this one's take. A place that holds a secret (url: ${{ secrets.PROD_URL }})
// is told by the key's fingerprint (ENGINECTL_JOURNAL_KEY, journal/sent-server.ts), as the run
// record keeps it; without the key it is told by nothing, and has no history.
import { calledAt } from '../api/called-at.ts';
import { journalKey } from '../journal/seal.ts';
import { placeHidden, placeId } from '../journal/sent-server.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Masker } from '../runner/masker.ts';
import { prepareRun, type Env, type ResolvedServer } from '../runner/scope.ts';

/** The place of the server of each name, as the run will call it; undefined for a name it cannot resolve. */
export type ServerPlace = (server: string | undefined) => string | undefined;

/** The places of `pipeline`'s servers, resolved once, when first asked (the run resolves them as it starts, with the same masker). */
export function serverPlaces(pipeline: Pipeline, env: Env, masker: Masker): ServerPlace {
  let servers: ReadonlyMap<string, ResolvedServer> | null | undefined;
  return (name) => {
    // A step that calls no server: its durations are of no place (an earlier run's are too).
    if (name === undefined) return '';
    if (servers === undefined) {
      try {
        servers = prepareRun(pipeline, env, masker).servers;
      } catch {
        // The run says what it cannot resolve; until then, no earlier durations are this run's.
        servers = null;
      }
    }
    const server = servers?.get(name);
    if (!server) return undefined;
    // A place that holds a secret reads *** whatever server it names: told by the key's fingerprint, or not at all.
    const place = calledAt(masker.mask(server.url));
    if (!placeHidden(place)) return place;
    const key = journalKey(env);
    return key === undefined ? undefined : placeId(key, server.url);
  };
}
