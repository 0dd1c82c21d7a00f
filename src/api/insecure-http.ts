// Basic authentication sends the user name and password readable (base64) with every request. Over
// plain http:// that is anyone on the network path; to a loopback address it never leaves the
// machine. So credentials go over http:// only to loopback, unless the server says otherwise.
import { UsageError } from '../errors.ts';

/** localhost, *.localhost, 127.0.0.0/8 and ::1: addresses that never leave this machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

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
