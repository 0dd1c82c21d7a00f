// The `echo-credentials` fault, a hostile server: every credential a request carried (the
// Authorization header as sent and decoded, credential fields of the body) is written back into
// the answer's text fields, in plain, URL-encoded, base64 and HTML-escaped forms. Clients must
// mask all of it.
import type { EmuRequest, EmuResponse } from '../http.ts';
import type { FaultKind } from './kind.ts';
import { jsonFlag } from './values.ts';

const CREDENTIAL_KEY = /pass|token|secret|code|key/i;
const TEXT_FIELDS = new Set(['report', 'message', 'summary', 'error', 'status', 'description', 'name']);

function credentialsOf(req: EmuRequest): string[] {
  const found: string[] = [];
  const auth = req.headers.authorization;
  if (auth) {
    found.push(auth);
    const [scheme, value = ''] = auth.split(' ');
    if (scheme?.toLowerCase() === 'basic') {
      // user-id:password, split at the first colon only: a password may hold colons (RFC 7617).
      const pair = Buffer.from(value, 'base64').toString('utf8');
      const at = pair.indexOf(':');
      found.push(...(at < 0 ? [pair] : [pair.slice(0, at), pair.slice(at + 1)]));
    } else found.push(value);
  }
  const walk = (value: unknown, key = ''): void => {
    if (typeof value === 'string' && CREDENTIAL_KEY.test(key) && value.length > 0) found.push(value);
    else if (Array.isArray(value)) value.forEach((v) => walk(v, key));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  try {
    walk(JSON.parse(req.body));
  } catch {
    if (req.body.trim()) found.push(req.body.trim()); // text/plain bodies (license codes)
  }
  return [...new Set(found)];
}

const html = (c: string) =>
  c.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function echoText(credentials: string[]): string {
  return credentials
    .map((c) => `${c} / ${encodeURIComponent(c)} / ${Buffer.from(c).toString('base64')} / ${html(c)}`)
    .join(' ; ');
}

function echoed(req: EmuRequest, answer: EmuResponse): EmuResponse {
  const credentials = credentialsOf(req);
  if (credentials.length === 0) return answer;
  const echo = ` [echo: ${echoText(credentials)}]`;
  const body = answer.body ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Text answers (license codes) keep their value on success; error texts get the echo.
    return answer.status >= 400 || body === '' ? { ...answer, body: `${body}${echo}` } : answer;
  }
  const visit = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string') return TEXT_FIELDS.has(key) ? `${value}${echo}` : value;
    if (Array.isArray(value)) return value.map((v) => visit(v, key));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, k)]));
    return value;
  };
  return { ...answer, body: JSON.stringify(visit(parsed)) };
}

export const echoCredentials: FaultKind = {
  name: 'echo-credentials',
  settings: [
    {
      keyword: 'echo-credentials',
      field: 'echoCredentials',
      usage: 'echo-credentials',
      effect:
        "a hostile server: handle the request (or answer `status=`), then write every credential it carried (the Authorization header as sent and decoded, body fields named like pass/token/secret/code/key, a text/plain body) back into the answer's text fields (`report`, `message`, `summary`, `error`, `status`, `description`, `name`), plain, URL-encoded and base64",
      fromText: () => true,
      fromJson: (value) => jsonFlag(value, 'echoCredentials'),
    },
  ],
  rewrite: (rule, answer, req) => (rule.echoCredentials ? echoed(req, answer) : answer),
};
