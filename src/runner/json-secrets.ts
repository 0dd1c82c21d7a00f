// The secrets that are JSON objects or lists (`CREDS={"user": ..., "password": ...}`), each as its
// value reads (its parse written again without spaces, each object's keys in order: a server may
// keep one in a store that orders them, as Go's maps, PostgreSQL's jsonb or Python's sort_keys do).
// A server may answer one back in a field, and `fromJSON()` of that field's text gives the secret's
// fields: asked only of the secrets given (a text that parses to one of them), never of any text
// that holds one, what an expression gives of it is a secret too (expr/secret-sink.ts,
// expr/compiled.ts, runner/scope.ts).

export class JsonSecrets {
  private readonly values = new Set<string>();

  /** Keeps `secret` when it is a JSON object or list. */
  add(secret: string): void {
    const first = secret.trimStart()[0];
    if (first !== '{' && first !== '[') return;
    try {
      this.values.add(canonical(JSON.parse(secret)));
    } catch {
      // not JSON: a secret like any other
    }
  }

  /** Whether `value` (a parse) is one of the JSON secrets, whatever the order of its keys. */
  holds(value: unknown): boolean {
    return this.values.size > 0 && value !== null && typeof value === 'object' && this.values.has(canonical(value));
  }

  /**
   * Whether `text` is, whole, one of the JSON secrets written another way (its keys in another
   * order, its spacing its own): a server kept one in a field and answers it back. Parsed only
   * when it could be one (a JSON secret is given, the text starts as one's does).
   */
  isWritten(text: string): boolean {
    if (this.values.size === 0) return false;
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[') return false;
    try {
      return this.holds(JSON.parse(text));
    } catch {
      return false;
    }
  }

  /** Keeps every JSON secret `other` keeps. */
  learnFrom(other: JsonSecrets): void {
    for (const value of other.values) this.values.add(value);
  }
}

/** `value` as JSON, each object's keys in order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
