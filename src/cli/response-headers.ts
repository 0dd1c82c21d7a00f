// The response headers `enginectl api -i` shows, as `curl -i` does, but for a CI log: a cookie a
// server or its gateway sets is a session credential (whoever holds it acts as the user until it
// expires), so each cookie's value is masked and its name and attributes kept; the headers that
// carry an authentication exchange are masked whole. Everything else is shown as sent.
import { MASK } from '../text/mask.ts';

/** Headers whose whole value is a credential or part of an authentication exchange. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authentication-info', 'proxy-authentication-info']);

/**
 * One header as shown: `set-cookie` (its cookies joined by ", ", transport.ts) with each cookie's
 * value masked up to its first `;`: a value holding ", " is masked with what follows, never shown in
 * part. A date's ", " inside `Expires=` starts no cookie (its next word is no `name=`).
 */
export function shownHeader(name: string, value: string): string {
  const key = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(key)) return MASK;
  if (key !== 'set-cookie') return value;
  return value.replace(/(^|, )([!#$%&'*+.^_`|~0-9A-Za-z-]+)=[^;]*/g, `$1$2=${MASK}`);
}
