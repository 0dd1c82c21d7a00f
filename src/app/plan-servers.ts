// The servers a saved plan was made against, by their names in the pipeline, and the check that a
// run calls the same ones. Each is kept twice: its URL without credentials, masked (what messages
// show), and a keyed hash of that URL unmasked (what is compared). The masked text alone cannot
// tell servers apart when a secret is in the URL (url: ${{ secrets.PROD_URL }} reads *** whatever
// server the secret names), and the URL itself is not written: it may be the secret.
//
// The hash is keyed as a journal's are (journal/hashing.ts): HMAC-SHA-256 under a random salt kept
// in the plan. Without the key, a hash of a URL could be checked offline against guesses with
// tables made once for every plan; with it, each guess needs the salt of that one plan and proves
// only equality with the URL a run gives again, which is what the run asks. A URL made of a secret
// is no harder to guess from its hash than the secret is: keep a plan as the journal is kept.
import { z } from 'zod';
import { keyedHash } from '../journal/hashing.ts';
import { MASK } from '../text/mask.ts';

/** A server as a plan of version 4 keeps it: its masked URL, and the keyed hash of the URL itself. */
export const PlanServer = z.object({
  url: z.string().describe('"https://***:8443", masked'),
  hash: z.string().regex(/^hmac-sha256:[0-9a-f]{64}$/),
});
export type PlanServer = z.infer<typeof PlanServer>;

/** A server as a saved plan kept it: a plan of version 3 kept no hash, only a masked URL that held no secret. */
export interface KeptServer {
  url: string;
  hash?: string;
}

/** The server as a plan keeps it: `url` is its URL without credentials (never written), `masked` what may be shown of it. */
export function planServer(salt: string, url: string, masked: string): PlanServer {
  return { url: masked, hash: keyedHash(salt, url) };
}

/** The first server of a plan of version 3 whose URL is masked: a secret was in it, and the plan cannot tell which server it named. */
export function maskedServer(servers: Readonly<Record<string, string>>): [string, string] | undefined {
  return Object.entries(servers).find(([, url]) => url.includes(MASK));
}

/**
 * Each server the run calls now that is not the one the plan read under its name: another URL, or
 * a name the plan called none by. By the hash where the plan kept one (made under the plan's salt,
 * `now` too); by the masked URL where it did not (version 3, refused when read if a secret was in
 * it). Known before anything is read, and refused then: a read would send this run's credentials
 * to a server the plan was not made against. A server the plan called and the run does not is
 * told by its instances, gone.
 */
export function serverChanges(
  saved: Readonly<Record<string, KeptServer>>,
  now: Readonly<Record<string, PlanServer>>,
): string[] {
  return Object.entries(now).flatMap(([name, is]) => {
    if (!Object.hasOwn(saved, name)) return [`server ${name} was not called when planned, and is ${is.url} now`];
    const was = saved[name]!;
    if (was.hash === undefined ? was.url === is.url : was.hash === is.hash) return [];
    return was.url === is.url
      ? [`server ${name} is not the one planned: its URL differs in a masked part (${is.url} then and now)`]
      : [`server ${name} was ${was.url} when planned, and is ${is.url} now`];
  });
}
