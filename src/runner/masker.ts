// Secrets registered once and masked in every line printed: plain, JSON-escaped, URL-encoded and
// base64 forms, and each line of a multi-line secret.

export const MASK = '***';
const MIN_LENGTH = 3;

export class Masker {
  private readonly forms = new Set<string>();
  private pattern: RegExp | undefined;

  /** `onSecret` hears each new form, e.g. to register it with a CI system's own log masking. */
  constructor(private readonly onSecret?: (form: string) => void) {}

  add(secret: string | undefined | null): void {
    if (typeof secret !== 'string' || secret.length < MIN_LENGTH) return;
    const before = this.forms.size;
    const candidates = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
    for (const line of secret.split(/\r?\n/)) if (line.trim().length >= MIN_LENGTH) candidates.push(line.trim());
    for (const form of candidates) {
      if (form.length < MIN_LENGTH || this.forms.has(form)) continue;
      this.forms.add(form);
      this.onSecret?.(form);
    }
    if (this.forms.size !== before) {
      const escaped = [...this.forms].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.pattern = new RegExp(escaped.join('|'), 'g');
    }
  }

  get size(): number {
    return this.forms.size;
  }

  mask(text: string): string {
    return this.pattern ? text.replace(this.pattern, MASK) : text;
  }

  /**
   * `value` with every string (and key) masked: a copy of the objects and arrays, sharing every
   * string that holds no secret, so a 50 MB update report is not copied on each pass.
   */
  maskValue<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.mask(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value && typeof value === 'object') {
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return this.walk((value as { toJSON(): unknown }).toJSON());
      const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype);
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        Object.defineProperty(out, this.mask(k), { value: this.walk(v), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    // numbers, booleans, null; functions and symbols do not occur in results
    return value;
  }
}
