// Basic authentication sends the user name and password readable (base64) with every request. Over
// plain http:// that is anyone on the network path; to a loopback address it never leaves the
// machine. So credentials go over http:// only to loopback, unless the server says otherwise.
import type { LookupFunction } from 'node:net';
import { UsageError } from '../errors.ts';

/** localhost and *.localhost: names of this machine (RFC 6761), which localhostLookup keeps so. */
function localhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: addresses that never leave this machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return localhostName(host) || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The lookup of every connection to a server: localhost and *.localhost are the loopback
 * addresses, never asked of DNS (RFC 6761 6.3), as isLoopback takes them (their credentials may go
 * over http:// and past the proxy); any other name is the system's lookup. glibc asks DNS for a
 * name /etc/hosts lacks, and a resolver could answer it with any address.
 */
export const localhostLookup: LookupFunction = (hostname, options, callback) => {
  if (!localhostName(hostname.toLowerCase())) {
    process.getBuiltinModule('node:dns').lookup(hostname, options, callback as never);
    return;
  }
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
  const all = [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ].filter((a) => !family || a.family === family);
  if (options.all) callback(null, all);
  else callback(null, all[0]!.address, all[0]!.family);
};

export interface InsecureHttpCheck {
  url: string;
  /** Whether Basic credentials (a user name, or user info in the URL) would be sent. */
  credentials: boolean;
  allowInsecureHttp?: boolean | undefined;
  /** "server main", "ENGINE_URL": where the user fixes it. */
  where: string;
  /** How to allow it, in the user's terms. */
  allowWith: string;
}

/** The refusal for credentials over plain http:// to another machine, or undefined when fine. */
export function insecureHttpError(check: InsecureHttpCheck): UsageError | undefined {
  let url: URL;
  try {
    url = new URL(check.url);
  } catch {
    return undefined; // not a URL: the caller reports that
  }
  const credentials = check.credentials || url.username !== '' || url.password !== '';
  if (url.protocol !== 'http:' || !credentials || check.allowInsecureHttp === true || isLoopback(url.hostname))
    return undefined;
  return new UsageError(
    'INSECURE_HTTP',
    `${check.where}: refusing to send the user name and password over plain http:// to ${url.host}: Basic authentication would carry them readable to anyone on the network path`,
    {
      hint: `use https://${url.host}${url.pathname === '/' ? '' : url.pathname}, or, on a network you trust, ${check.allowWith}`,
    },
  );
}
