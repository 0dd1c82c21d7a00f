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

  /** A deep copy of `value` with every string masked. */
  maskValue<T>(value: T): T {
    if (!this.pattern) return value;
    return JSON.parse(this.mask(JSON.stringify(value) ?? 'null')) as T;
  }
}
