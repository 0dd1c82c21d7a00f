// A server's URL as the masker learns it. The password in its user part is a secret, always. A URL
// that holds a secret (`url: ${{ secrets.PROD_URL }}`, `http://${{ secrets.PROD_HOST }}`) is named
// by every message as the URL parser spells it (api/transport.ts: no trailing slash, the host in
// lower case, no default port, `%`-escapes of its path), not as the secret was written: each of
// those spellings is taught as the secret, so "on http://127.0.0.1:8080: authentication failed"
// reads "on ***" whatever the secret's spelling (`http://127.0.0.1:8080/`). A secret in the host
// part only (`http://${{ secrets.PROD_HOST }}`) is taught as the host with and without its port
// (`prod-db.example.com`, as a TLS error names it): "on http://***"; a secret in the path only as
// the path, the host, which names no secret, left as it is.
import { urlPasswords } from '../api/url-logins.ts';
import { MASK } from '../text/mask.ts';
import { MIN_LENGTH, type Masker } from './masker.ts';

/** The user part of a URL the parser read (`//user:password@`), up to the last @ of its authority. */
const USER_PART = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;

/** Teaches `masker` the secrets of a server's resolved URL (see above); `name` names it in a warning. */
export function learnServerUrl(url: string | undefined, masker: Masker, name: string): void {
  if (!url) return;
  // Every password its user part may hold, found as leniently as in any text (api/url-logins.ts):
  // a URL the parser refuses is refused by the client too, named with its login hidden, but a
  // message or a finding may still quote it.
  for (const password of urlPasswords(url)) masker.add(password, name);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // not a URL: the client refuses it, masked as written
  }
  try {
    if (parsed.password) masker.add(decodeURIComponent(parsed.password), name);
  } catch {
    masker.add(parsed.password, name); // a %-escape that is not UTF-8: as written
  }
  // Where a secret is, once the user part (masked above, or no secret) is set aside: the whole URL
  // (its scheme masked too), its host part, its path or query.
  const masked = masker.mask(url).replace(USER_PART, '$1');
  if (!masked.includes(MASK)) return;
  parsed.username = '';
  parsed.password = '';
  const path = parsed.pathname.replace(/\/+$/, '');
  const parts = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)(.*)$/is.exec(masked);
  const forms = !parts
    ? [parsed.href, `${parsed.origin}${path}`, parsed.origin, parsed.host, parsed.hostname]
    : [
        ...(parts[1]!.includes(MASK) ? [parsed.host, parsed.hostname] : []),
        ...(parts[2]!.includes(MASK) ? [`${parsed.pathname}${parsed.search}`, path] : []),
      ];
  for (const form of new Set(forms)) if (form.trim().length >= MIN_LENGTH) masker.add(form, name);
}
