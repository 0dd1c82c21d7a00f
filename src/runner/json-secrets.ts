// The secrets that are JSON objects or lists (`CREDS={"user": ..., "password": ...}`), each as its
// value reads (its parse written again without spaces, each object's keys in order: a server may
// keep one in a store that orders them, as Go's maps, PostgreSQL's jsonb or Python's sort_keys do).
// A server may answer one back in a field, and `fromJSON()` of that field's text gives the secret's
// fields: asked only of the secrets given (a text that parses to one of them), never of any text
// that holds one, what an expression gives of it is a secret too (expr/secret-sink.ts,
// expr/compiled.ts, runner/scope.ts).

export class JsonSecrets {
  private readonly values = new Set<string>();
  /** Each one's shape (its keys, or its length): a value of another shape is none of them, found without writing it. */
  private readonly shapes = new Set<string>();

  /** Keeps `secret` when it is a JSON object or list. */
  add(secret: string): void {
    const first = secret.trimStart()[0];
    if (first !== '{' && first !== '[') return;
    try {
      const value: unknown = JSON.parse(secret);
      this.values.add(canonical(value));
      if (value !== null && typeof value === 'object') this.shapes.add(shape(value));
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

  /**
   * The texts that give `value` (a parse, e.g. a server's answer) when it is one of the JSON secrets,
   * whatever the order of its keys, as an expression or a report would write it: compact, spaced
   * on one line (a space stands for any run of white space, new lines too: masker.ts; one line, so
   * that no line of it is learnt alone), and spaced after `:` and `,` only.
   */
  writtenForms(value: object): string[] {
    if (this.values.size === 0 || !this.shapes.has(shape(value)) || !this.holds(value)) return [];
    const compact = JSON.stringify(value);
    return [
      compact,
      JSON.stringify(value, null, 1).replace(/\n */g, ' '),
      compact.replace(/("(?:[^"\\]|\\.)*"|[^",:]+)([,:])/g, '$1$2 '),
    ];
  }

  /** Keeps every JSON secret `other` keeps. */
  learnFrom(other: JsonSecrets): void {
    for (const value of other.values) this.values.add(value);
    for (const value of other.shapes) this.shapes.add(value);
  }
}

/** An object's keys in order, or a list's length. */
function shape(value: object): string {
  return Array.isArray(value) ? `[${value.length}` : `{${Object.keys(value).sort().join('\u0000')}`;
}

/** `value` as JSON, each object's keys in order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
