// The secrets that are JSON objects or lists (`CREDS={"user": ..., "password": ...}`), each as its
// value reads (its parse written again without spaces). A server may keep one and answer it back in
// a field, and `fromJSON()` of that field's text gives the secret's fields: asked only of the
// secrets given (a text that parses to one of them), never of any text that holds one, each string
// of what it gives is a secret too (expr/secret-sink.ts, runner/scope.ts).

export class JsonSecrets {
  private readonly values = new Set<string>();

  /** Keeps `secret` when it is a JSON object or list. */
  add(secret: string): void {
    const first = secret.trimStart()[0];
    if (first !== '{' && first !== '[') return;
    try {
      this.values.add(JSON.stringify(JSON.parse(secret)));
    } catch {
      // not JSON: a secret like any other
    }
  }

  /** Whether `value` (a parse) is one of the JSON secrets, with its keys in the same order. */
  holds(value: unknown): boolean {
    return (
      this.values.size > 0 && value !== null && typeof value === 'object' && this.values.has(JSON.stringify(value))
    );
  }

  /** Keeps every JSON secret `other` keeps. */
  learnFrom(other: JsonSecrets): void {
    for (const value of other.values) this.values.add(value);
  }
}
