// The response headers `enginectl api -i` shows, as `curl -i` does, but for a CI log: a cookie a
// server or its gateway sets is a session credential (whoever holds it acts as the user until it
// expires), so each cookie's value is masked and its name and attributes kept; the headers that
// carry an authentication exchange are masked whole. Everything else is shown as sent.
import { MASK } from '../text/mask.ts';

/** Headers whose whole value is a credential or part of an authentication exchange. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authentication-info', 'proxy-authentication-info']);

/**
 * An attribute a cookie's `;` starts, shown as sent (`$1`), with the next cookie when the joined
 * header starts one after it (`, ` then `$2`). Its value holds no `=` (nor `,` but a date's after
 * its weekday): anything else is masked as a cookie is.
 */
const ATTRIBUTE =
  /^(\s*(?:expires=[a-z]{3,9},? [^,;=]*|(?:max-age|domain|path|samesite|priority)=[^,;=]*|secure|httponly|partitioned)\s*)(?:, (.*))?$/is;

/**
 * One header as shown: `set-cookie` (its cookies joined by ", ", transport.ts) with each cookie's
 * value masked: what is not a known attribute is masked from its first `=` to its `;` (a value
 * holding ", " is masked with what follows, never shown in part), whole when it has no `=` (a
 * cookie without a name) or what comes before its `=` holds a `,` (a name cannot tell).
 */
export function shownHeader(name: string, value: string): string {
  const key = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(key)) return MASK;
  if (key !== 'set-cookie') return value;
  return value
    .split(';')
    .map((segment, i) => {
      const attribute = i === 0 || segment.trim() === '' ? null : ATTRIBUTE.exec(segment);
      if (!attribute) return segment.trim() === '' ? segment : shownPair(segment);
      return attribute[2] === undefined ? attribute[1]! : `${attribute[1]}, ${shownPair(attribute[2])}`;
    })
    .join(';');
}

/** A cookie's `name=value` with its value masked; masked whole when it names nothing for sure. */
function shownPair(pair: string): string {
  const at = pair.indexOf('=');
  const name = pair.slice(0, Math.max(at, 0));
  return at < 0 || name.includes(',') ? `${/^\s*/.exec(pair)![0]}${MASK}` : `${name}=${MASK}`;
}
