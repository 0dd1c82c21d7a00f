// The logins written in URLs (scheme://user:password@host) anywhere in a text, found leniently: a
// URL parser gives up on a password that holds an unencoded `#`, `?`, `/`, `%` or a space, on a
// port that is no number, on white space or other text before the URL, on a list of URLs, and a
// password missed is a password shown. So a login here is every `scheme://` (`https:/` too, and
// back slashes, as a parser reads an http URL), a user name (no `:`, `/`, `\`, `?`, `#` or white
// space: it may hold `@`, as an e-mail address), a `:` and the password, up to an `@`: which `@`
// is ambiguous when the password may hold one, so each `@` after the `:` ends a candidate, up to
// the next login's `:` (a list of URLs: each `@` belongs to the URL before it). Over-masking a
// candidate (`pw@host/x?mail=a` of `https://u:pw@host/x?mail=a@b`) costs a little of what the run
// shows; missing the password is a leak. The candidates of one login are at most MAX_CANDIDATES
// (a password with that many unencoded `@` is not found whole), each no longer than the text
// between two logins' `:`, so the work is linear in the text's length.

/** The most `@` after one login's `:` taken as ends of its password. */
export const MAX_CANDIDATES = 16;

interface Login {
  /** Where its user name starts (after the scheme's slashes). */
  from: number;
  /** Its `:` before the password, or -1 for a user name alone. */
  colon: number;
  /** The first MAX_CANDIDATES `@` that may end its password. */
  ats: number[];
  /** Where its user part ends at the furthest (its last `@` before a `/`, or after its `:`), or -1 for none. */
  end: number;
}

/** A scheme's last character, its `:` and its slashes (`postgres://`, `http:\\`, `https:/`). */
const SCHEME_END = /[a-z0-9+.-]:[/\\]+/gi;
/** The schemes a URL parser reads with one slash (or back slash) as well as two. */
const SPECIAL = /(?:^|[^a-z0-9+.-])(?:https?|wss?|ftp)$/i;
const USER_NAME = /[^:/\\?#\s]*/y;
/** A user name without a password: up to its authority's last `@`. */
const USER_ALONE = /[^/\\?#\s]*@/y;

function logins(text: string): Login[] {
  if (!text.includes(':')) return [];
  const found: Login[] = [];
  for (const m of text.matchAll(SCHEME_END)) {
    // One slash only after a scheme a parser reads so (`https:/u:p@h`), not after a path (`/bin:/opt`).
    if (m[0].length === 3 && !SPECIAL.test(text.slice(Math.max(0, m.index - 5), m.index + 1))) continue;
    const from = m.index + m[0].length;
    USER_NAME.lastIndex = from;
    USER_NAME.exec(text);
    const colon = text[USER_NAME.lastIndex] === ':' ? USER_NAME.lastIndex : -1;
    USER_ALONE.lastIndex = from;
    const end = USER_ALONE.exec(text) ? USER_ALONE.lastIndex - 1 : -1;
    if (colon >= 0 || end >= 0) found.push({ from, colon, ats: [], end });
  }
  // Each `@` ends a candidate of the login with a password whose `:` is the last before it.
  const withPassword = found.filter((l) => l.colon >= 0);
  let owner = -1;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    while (owner + 1 < withPassword.length && withPassword[owner + 1]!.colon < at) owner++;
    const login = withPassword[owner];
    if (!login) continue;
    if (login.ats.length < MAX_CANDIDATES) login.ats.push(at);
    login.end = Math.max(login.end, at);
  }
  return found;
}

/** `%XX` escapes undone where they spell UTF-8, the rest as written (`pa%ss%40x`: `pa%ss@x`). */
function decoded(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Every password the URLs in `text` may carry (see above): each candidate as written and, where
 * it holds `%`-escapes, as the server reads it. Empty for a text without one.
 */
export function urlPasswords(text: string): string[] {
  return passwords(text, text);
}

/** A pipeline's expression, `${{ … }}`: white space and any sign inside its braces. */
const EXPRESSION = /\$\{\{[^]*?\}\}/g;

/**
 * The passwords a pipeline's value writes literally in its URLs: each `${{ … }}` read as one word
 * (a user name an expression gives has spaces inside its braces, `https://${{ vars.user }}:pw@h`),
 * and a candidate an expression is part of left out (it is no literal).
 */
export function literalUrlPasswords(value: string): string[] {
  return passwords(
    value.replace(EXPRESSION, (e) => 'x'.repeat(e.length)),
    value,
  ).filter((p) => !p.includes('${{'));
}

/** The candidates found in `read`, taken from `text` (the same length: `read` is `text` with some parts made opaque). */
function passwords(read: string, text: string): string[] {
  const out = new Set<string>();
  for (const login of logins(read)) {
    for (const at of login.ats) {
      const raw = text.slice(login.colon + 1, at);
      if (raw === '') continue;
      out.add(raw);
      out.add(decoded(raw));
    }
  }
  return [...out];
}

/**
 * `text` with the user part of each URL in it (`user:password@`, `user@`) replaced by `instead`
 * (`***@` to show it, '' to set it aside), up to the furthest `@` its password may end at: no
 * candidate of urlPasswords is left.
 */
export function hideUrlLogins(text: string, instead = '***@'): string {
  let out = '';
  let done = 0;
  for (const login of logins(text)) {
    if (login.end < Math.max(login.from, done)) continue;
    out += text.slice(done, login.from) + instead;
    done = login.end + 1;
  }
  return out + text.slice(done);
}
