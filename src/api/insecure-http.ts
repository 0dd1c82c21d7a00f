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

/** An address of this machine: 127.0.0.0/8, ::1, or 127.x as IPv4-mapped IPv6. */
export function loopbackAddress(address: string): boolean {
  return /^(?:::ffff:)?127(\.\d{1,3}){3}$/i.test(address) || /^(?:0{0,4}:){2,7}0{0,3}1$/.test(address);
}

/** The system's answers that mean it knows no address for the name. */
const UNRESOLVED = new Set(['ENOTFOUND', 'ENODATA', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

/** The code of the lookup's refusal of a localhost name the system resolves off this machine (network-errors.ts). */
export const LOCALHOST_OFF_MACHINE = 'ENGINECTL_LOCALHOST_OFF_MACHINE';

type Address = { address: string; family: number };

/**
 * The lookup of every connection to a server. isLoopback takes localhost and *.localhost for this
 * machine (their credentials may go over http:// and past the proxy), so their addresses must be
 * this machine's: the system's lookup is asked (/etc/hosts may give `engine2.localhost`
 * 127.0.0.2), its loopback answers are taken, any other is refused (glibc asks DNS for a name
 * /etc/hosts lacks, and a resolver could answer with any address). A name the system cannot
 * resolve is 127.0.0.1 and ::1 (RFC 6761 6.3). Any other name is the system's lookup as it is.
 */
export function localhostLookupWith(system: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    if (!localhostName(hostname.toLowerCase())) {
      system(hostname, options, callback);
      return;
    }
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const answer = (error: NodeJS.ErrnoException | null, all: Address[]) => {
      if (error) callback(error, '', 0);
      else if (options.all) callback(null, all);
      else callback(null, all[0]!.address, all[0]!.family);
    };
    system(hostname, { ...options, all: true }, (error, found) => {
      if (error && !UNRESOLVED.has(error.code ?? '')) return answer(error, []);
      const all = error ? [] : (found as unknown as Address[]);
      const away = all.find((a) => !loopbackAddress(a.address));
      if (away)
        return answer(
          Object.assign(new Error(`${hostname} resolves to ${away.address}, not this machine`), {
            code: LOCALHOST_OFF_MACHINE,
            hostname,
            address: away.address,
          }),
          [],
        );
      if (all.length > 0) return answer(null, all);
      answer(
        null,
        [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ].filter((a) => !family || a.family === family),
      );
    });
  };
}

export const localhostLookup: LookupFunction = localhostLookupWith((hostname, options, callback) =>
  process.getBuiltinModule('node:dns').lookup(hostname, options, callback as never),
);

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
