// A server's base URL, checked before anything is sent: an http(s) URL with a valid port and no
// white space. Credentials written in its user part (https://user:pass@host) are the server's
// Basic credentials when it has no username of its own; given both ways, it is refused.
import { UsageError } from '../errors.ts';

export interface ServerUrl {
  /** The URL without its user part. */
  url: string;
  username: string | undefined;
  password: string | undefined;
}

/**
 * The user part of a URL as a person wrote it, up to its last @: a password may hold @ and / (one
 * written as is, not %2F, makes the URL's authority end inside it), and a URL that does not parse
 * has no authority to trust. What shownUrl hides and urlPassword reads; the store URL's rule too
 * (store/store.ts, nameOfStore).
 */
const USER_PART = /^([A-Za-z][A-Za-z0-9+.-]*:\/*)([^]*)@/;

/** The URL as it may be shown: everything from after its scheme up to its last @ masked (see USER_PART). */
export function shownUrl(url: string): string {
  return JSON.stringify(url.replace(USER_PART, '$1***@'));
}

/** What is wrong with `url` as a server's base URL, or undefined. */
export function serverUrlProblem(url: string): string | undefined {
  if (/\s/.test(url)) return `${shownUrl(url)} holds white space (a line break or a space)`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const port = /^https?:\/\/[^/:]+:(\d+)/.exec(url)?.[1];
    return port && Number(port) > 65535
      ? `${shownUrl(url)} has port ${port}; ports go up to 65535`
      : `${shownUrl(url)} is not a URL${USER_PART.exec(url)?.[2]?.includes('/') ? ' (a / in its password is written %2F)' : ''}`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${shownUrl(url)} is not an http:// or https:// URL`;
  return undefined;
}

/** The URL checked and its credentials split off; `where` names the server in messages. */
export function serverUrl(
  config: { url: string; username?: string | undefined; password?: string | undefined },
  where: string,
): ServerUrl {
  const problem = serverUrlProblem(config.url);
  if (problem)
    throw new UsageError('BAD_SERVER_URL', `${where}: the URL ${problem}`, {
      hint: 'give the base_url of the API, e.g. https://erp.example.com',
    });
  const parsed = new URL(config.url);
  if (parsed.username === '' && parsed.password === '')
    return { url: config.url, username: config.username, password: config.password };
  if (config.username !== undefined) {
    throw new UsageError('BAD_SERVER_URL', `${where}: credentials are given twice, in the URL and as the username`, {
      hint: 'drop the user part of the URL (https://user:pass@…) and keep username and password',
    });
  }
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString().replace(/\/$/, config.url.endsWith('/') ? '/' : ''), username, password };
}

/**
 * The password a URL carries (scheme://user:PASSWORD@host), decoded; undefined for any other text.
 * A URL that does not parse (a password holding a / as is, not %2F, ends its authority at a port
 * that is none) has its password read up to its last @, as shownUrl hides it.
 */
export function urlPassword(text: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    const login = /^[a-z][a-z0-9+.-]*:\/\/[^/@:\s]*:(\S+)@/i.exec(text)?.[1];
    return login === undefined ? undefined : decoded(login);
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i.test(text) || !parsed.password) return undefined;
  return decoded(parsed.password);
}

/** A %-escaped text decoded; as written when its escapes are not UTF-8. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
