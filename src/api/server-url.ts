// A server's base URL, checked before anything is sent: an http(s) URL with a valid port and no
// white space. Credentials written in its user part (https://user:pass@host) are the server's
// Basic credentials when it has no username of its own; given both ways, it is refused.
import { UsageError } from '../errors.ts';
import { hideUrlLogins, urlPasswords } from './url-logins.ts';

export interface ServerUrl {
  /** The URL without its user part. */
  url: string;
  username: string | undefined;
  password: string | undefined;
}

/** The URL as it may be shown: its user part masked, up to the furthest @ its password may end at (url-logins.ts). */
export function shownUrl(url: string): string {
  return JSON.stringify(hideUrlLogins(url));
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
      : `${shownUrl(url)} is not a URL${urlPasswords(url).some((p) => p.includes('/')) ? ' (a / in its password is written %2F)' : ''}`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${shownUrl(url)} is not an http:// or https:// URL`;
  if (!userPartDecodes(parsed))
    return `${shownUrl(url)} has a % that starts no %XX escape in its user part (write a % of a user name or password as %25)`;
  return undefined;
}

/** Whether the user name and password of a parsed URL decode (each % starts a %XX escape of UTF-8). */
export function userPartDecodes(parsed: URL): boolean {
  try {
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
    return true;
  } catch {
    return false;
  }
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
