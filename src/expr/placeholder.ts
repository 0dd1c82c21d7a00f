// A value known only at run time, for the dry run: an earlier step's output. Reading into it
// (`.entities[0].ikey`) gives a deeper placeholder, and it shows as `<steps.find.outputs.key>`.
export class Placeholder {
  constructor(readonly path: string) {}

  child(key: string): Placeholder {
    return new Placeholder(/^\d+$/.test(key) ? `${this.path}[${key}]` : `${this.path}.${key}`);
  }

  toString(): string {
    return `<${this.path}>`;
  }

  toJSON(): string {
    return this.toString();
  }
}
