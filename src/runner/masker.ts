// Secrets registered once, then masked in values and in log lines: plain, JSON-escaped,
// URL-encoded, base64, HTML-escaped and whitespace-folded forms, and each line of a multi-line
// secret. Reports are masked as values (maskValue) before they are rendered, so a secret whose
// value is `true`, `null` or `ver` never breaks the JSON or XML a renderer writes; a credential
// field (targetAuthToken, a target's password, ...) is masked whole, whatever its length.

import { MASK } from '../text/mask.ts';

export { MASK };
/** Shorter secrets are masked only in credential fields: in free text they would mask everything. */
export const MIN_LENGTH = 3;

/** Fields that hold a credential wherever they appear: the API's option bodies, targets, servers. */
export const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set([
  'targetAuthToken',
  'targetPassword',
  'sourceAuthToken',
  'sourcePassword',
  'token',
  'password',
]);

export interface MaskerHooks {
  /** Hears each new form, e.g. to register it with a CI system's own log masking. */
  onSecret?: (form: string) => void;
  /** Hears a secret that cannot be masked safely in free text, by its name (never its value). */
  onWeak?: (name: string, why: string) => void;
}

const HTML_QUOTES: readonly (readonly [string, string])[] = [
  ['&quot;', '&#39;'],
  ['&quot;', '&#x27;'],
  ['&#34;', '&#39;'],
  ['&quot;', '&apos;'],
];

/** The forms a secret may take once a server or a renderer has encoded it. */
export function secretForms(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
  const html = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  for (const [dq, sq] of HTML_QUOTES) forms.push(html.replace(/"/g, dq).replace(/'/g, sq));
  forms.push(secret.replace(/\s+/g, ' ').trim());
  for (const line of secret.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed.length >= MIN_LENGTH) forms.push(trimmed, Buffer.from(trimmed).toString('base64'));
  }
  return forms.filter((f) => f.length >= MIN_LENGTH);
}

export class Masker {
  private readonly forms = new Set<string>();
  /** The secrets added so far: a step's target token is added again at every instance. */
  private readonly secrets = new Set<string>();
  private readonly weak = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(private readonly on: MaskerHooks = {}) {}

  /** Registers a secret; `name` says which one in a warning when it is too short to mask in text. */
  add(secret: string | undefined | null, name = 'a secret'): void {
    if (typeof secret !== 'string' || secret === '') return;
    if (secret.trim().length < MIN_LENGTH) {
      if (!this.weak.has(name)) {
        this.weak.add(name);
        this.on.onWeak?.(name, `${name} is shorter than ${MIN_LENGTH} characters: it is masked in credential fields, not in free text`);
      }
      return;
    }
    if (/^(true|false|null|-?\d+(\.\d+)?)$/i.test(secret.trim()) && !this.weak.has(name)) {
      this.weak.add(name);
      this.on.onWeak?.(name, `${name} is a number or a literal (true, false, null): it is masked in text, but a number or literal equal to it is shown as is`);
    }
    if (this.secrets.has(secret)) return;
    this.secrets.add(secret);
    const before = this.forms.size;
    for (const form of secretForms(secret)) {
      if (this.forms.has(form)) continue;
      this.forms.add(form);
      this.on.onSecret?.(form);
    }
    if (this.forms.size !== before) {
      const escaped = [...this.forms].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.pattern = new RegExp(escaped.join('|'), 'g');
    }
  }

  get size(): number {
    return this.forms.size;
  }

  /** A line of text with every form of every secret replaced: for logs and messages. */
  mask(text: string): string {
    return this.pattern ? text.replace(this.pattern, MASK) : text;
  }

  /**
   * `value` with every string (and key) masked and every credential field replaced: a copy of
   * the objects and arrays, sharing every string that holds no secret. Numbers, booleans and
   * null are typed values, never text, and stay as they are.
   */
  maskValue<T>(value: T): T {
    return this.walk(value, false) as T;
  }

  private walk(value: unknown, credential: boolean): unknown {
    if (typeof value === 'string') return credential && value !== '' ? MASK : this.mask(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v, credential));
    if (value && typeof value === 'object') {
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return this.walk((value as { toJSON(): unknown }).toJSON(), credential);
      const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype);
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        const key = this.mask(k);
        const masked = this.walk(v, CREDENTIAL_FIELDS.has(k));
        // Assignment is several times faster than defineProperty; only `__proto__` on an object
        // with a prototype would set the prototype instead of a key.
        if (key === '__proto__') Object.defineProperty(out, key, { value: masked, enumerable: true, writable: true, configurable: true });
        else out[key] = masked;
      }
      return out;
    }
    // numbers, booleans, null; functions and symbols do not occur in results
    return value;
  }
}
