// A store URL as it may be printed: no credentials, and no query value unless it is known safe. A
// URL given to a store may carry a secret outside its user and password: a signature or token
// pasted from a pre-signed link (?X-Amz-Signature=, ?sig=), an endpoint that holds one, a
// fragment. Every refusal and message names the store by this, and an option by its name alone.
import { parseDuration, shownDuration } from '../duration.ts';

/** An s3:// endpoint as a store takes it (and as it may be shown): http(s), no credentials, query or fragment. */
export function plainEndpoint(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    ['http:', 'https:'].includes(url.protocol) &&
    !url.username &&
    !url.password &&
    !text.includes('?') &&
    !text.includes('#')
  );
}

/** A region's name as a store takes it (eu-west-1, auto, garage): letters, digits, - and _. */
export const REGION = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The options whose values may be shown, each when it is what the option takes; any other value is hidden. */
const SHOWN: Record<string, (value: string) => boolean> = {
  grace: (v) => parseDuration(v) !== undefined,
  timeout: (v) => parseDuration(v) !== undefined,
  'path-style': (v) => v === 'true' || v === 'false',
  region: (v) => REGION.test(v),
  endpoint: plainEndpoint,
};

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** An option's name as a refusal shows it: a name, quoted; anything else (a token written with no =) unnamed. */
export const shownOption = (name: string): string =>
  /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/.test(name) ? JSON.stringify(name) : 'with no name of an option';

function shownQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decoded(eq < 0 ? pair : pair.slice(0, eq));
      if (!/^[A-Za-z][A-Za-z0-9_.-]{0,39}$/.test(name)) return '***';
      if (eq < 0 || pair.length === eq + 1) return pair;
      return SHOWN[name]?.(decoded(pair.slice(eq + 1))) ? pair : `${pair.slice(0, eq)}=***`;
    })
    .join('&');
}

/**
 * A store URL as it may be printed: everything from after its scheme (and its slashes, however
 * many) up to its last @ replaced (but in a file: URL's path) (a password may hold / and @, as AWS secret keys do, and a URL
 * that does not parse, `s3:/user:pw@bucket`, has no authority to trust: the last @ bounds them
 * all); each query value but a known-safe one's (a duration, path-style, a region, a plain
 * endpoint) replaced, and a fragment. A store URL that is taken shows as it was given.
 */
export function nameOfStore(url: string): string {
  // A file: URL with no authority (file:///home/jo@corp.com/store) holds a path, where an @ is a
  // character of a folder's name, never a login: it shows as given, and a command line that names
  // the store (a shard's workers') names the same folder.
  const hidden = /^file:(?:\/\/\/|\/(?!\/)|(?!\/))/i.test(url)
    ? url
    : url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/*)[^]*@/, '$1***@');
  const hash = hidden.indexOf('#');
  const base = hash < 0 ? hidden : hidden.slice(0, hash);
  const q = base.indexOf('?');
  const shown = q < 0 ? base : `${base.slice(0, q)}?${shownQuery(base.slice(q + 1))}`;
  return hash < 0 ? shown : `${shown}#***`;
}

/** A duration option's value as a refusal shows it: a duration (too long, or 0) as given; anything else, which could be a secret, not. */
export const givenDuration = (text: string | null, ms: number | undefined): string =>
  ms === undefined ? 'what was given (not shown)' : JSON.stringify(shownDuration(text ?? ''));
