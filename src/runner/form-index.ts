// The alternation of many secrets' forms (`form1|form2|…`, longest first), searched at a cost that
// does not grow with their number. A regular expression tries an alternation's forms one by one at
// every position of a text: with a login per site, a fleet of 1,000 sites has about 20,000 forms,
// and its run spent 60% of its time there (bench/fleet.mjs, "a login per site").
//
// Each form has a key: KEY code units of it that every match of its pattern holds, as written and
// side by side (no white space, nothing a view may drop or undo: the caller says which units are
// plain). A text is scanned once for every key (a rolling hash, a bit set, then a comparison), and
// the alternation searched is that of the forms whose key it holds, with the forms too short to
// have one, in the order of the whole alternation. That search finds exactly what the whole
// alternation finds, match for match: a form whose key the text does not hold matches nowhere in
// it, and an alternative that matches nowhere decides nothing. test/security/form-index.test.ts
// holds the two against each other on random forms and texts.

/** The length of a key, in code units. */
export const KEY = 6;
/** Fewer forms than this are searched as one alternation, as they always were. */
export const INDEX_FROM = 32;

const BITS = 1 << 20;
const PRIME = 0x01000193;
/** PRIME to the power KEY - 1, modulo 2^32: a rolling hash's weight of the unit it drops. */
const DROP = Array.from({ length: KEY - 1 }).reduce<number>((h) => Math.imul(h, PRIME), 1);

export class Alternation {
  /** Each form, its pattern (made when first searched for), its length (the alternation's order: longest first, then first added) and key. */
  private readonly forms: string[] = [];
  private readonly sources: (string | undefined)[] = [];
  private readonly lengths: number[] = [];
  private readonly keys: string[] = [];
  private readonly keyless: number[] = [];
  private readonly byHash = new Map<number, number[]>();
  private readonly bits = new Uint32Array(BITS / 32);
  /** How many forms each key is the key of: a new form takes the one its neighbours use least. */
  private readonly uses = new Map<string, number>();
  private readonly built = new Map<string, RegExp>();
  private whole: RegExp | undefined;
  private readonly caseless: boolean;

  /**
   * `source`: the pattern a form's matches meet; `indexFrom`: how many forms make the index worth
   * its scan (tests set 0 to compare the two).
   */
  constructor(
    private readonly flags: string,
    private readonly source: (form: string) => string,
    private readonly indexFrom = INDEX_FROM,
  ) {
    this.caseless = flags.includes('i');
  }

  get size(): number {
    return this.forms.length;
  }

  /**
   * Adds a form (its length is its place in the order); `plain(i)`: whether every match of its
   * pattern holds the form's unit i as written, next to its plain neighbours.
   */
  add(form: string, plain: (i: number) => boolean = () => true): void {
    // A form whose lower case is not as long (no hex form: they are ASCII) keeps no key.
    const folded = this.caseless ? form.toLowerCase() : form;
    this.addKeyed(form, folded.length === form.length ? this.keyOf(folded, plain) : undefined);
  }

  /** The key each form was given, in the order they were added ('' for none): for another alternation of the same pattern (addKeyed). */
  keyed(): readonly string[] {
    return this.keys;
  }

  /** Adds a form with the key an alternation of the same source and flags gave it (keyed()): no key is looked for again. */
  addKeyed(form: string, key: string | undefined): void {
    const id = this.forms.length;
    this.forms.push(form);
    this.sources.push(undefined);
    this.lengths.push(form.length);
    this.whole = undefined;
    if (key === '') key = undefined;
    this.keys.push(key ?? '');
    if (key === undefined) {
      this.keyless.push(id);
      return;
    }
    this.uses.set(key, (this.uses.get(key) ?? 0) + 1);
    const h = hash(key, 0);
    this.bits[(h & (BITS - 1)) >>> 5]! |= 1 << (h & 31);
    const same = this.byHash.get(h);
    if (same) same.push(id);
    else this.byHash.set(h, [id]);
  }

  /** The alternation to search `text` with: the forms that may match in it, in order; undefined when none may. */
  for(text: string): RegExp | undefined {
    if (this.forms.length === 0) return undefined;
    if (this.forms.length < this.indexFrom) return (this.whole ??= this.compile(this.forms.map((_, i) => i)));
    const ids = this.candidates(text);
    if (ids.length === 0) return undefined;
    const name = ids.join(',');
    let found = this.built.get(name);
    if (!found) {
      found = this.compile(ids);
      if (this.built.size >= 256) this.built.delete(this.built.keys().next().value!);
      this.built.set(name, found);
    }
    return found;
  }

  private compile(ids: number[]): RegExp {
    const ordered = ids.sort((a, b) => this.lengths[b]! - this.lengths[a]! || a - b);
    return new RegExp(ordered.map((id) => (this.sources[id] ??= this.source(this.forms[id]!))).join('|'), this.flags);
  }

  /** The forms whose key `text` holds, and those without a key. */
  private candidates(text: string): number[] {
    const found = new Set<number>(this.keyless);
    const t = this.caseless ? text.toLowerCase() : text;
    if (t.length >= KEY && this.byHash.size > 0) {
      let h = hash(t, 0);
      for (let at = 0; ; at++) {
        if (this.bits[(h & (BITS - 1)) >>> 5]! & (1 << (h & 31)))
          for (const id of this.byHash.get(h) ?? []) if (t.startsWith(this.keys[id]!, at)) found.add(id);
        if (at + KEY >= t.length) break;
        h = (Math.imul(h - Math.imul(t.charCodeAt(at), DROP), PRIME) + t.charCodeAt(at + KEY)) | 0;
      }
    }
    return [...found];
  }

  /**
   * A key of `form`: of a few stretches of KEY plain units spread over it (its last, its first and
   * three between), the one the fewest forms have as their key so far, so that forms sharing a
   * beginning (`user:` in every login's pair) are told apart by what differs.
   */
  private keyOf(form: string, plain: (i: number) => boolean): string | undefined {
    const ends: number[] = [];
    let run = 0;
    for (let i = 0; i < form.length; i++) {
      run = plain(i) ? run + 1 : 0;
      if (run >= KEY) ends.push(i + 1);
    }
    if (ends.length === 0) return undefined;
    let best = '';
    let fewest = Infinity;
    const n = ends.length - 1;
    for (const at of new Set([n, 0, n >> 1, n >> 2, (3 * n) >> 2])) {
      const key = form.slice(ends[at]! - KEY, ends[at]);
      const uses = this.uses.get(key) ?? 0;
      if (uses < fewest) [best, fewest] = [key, uses];
    }
    return best;
  }
}

/** Whether each unit of `form` is not white space as a regular expression's `\s` reads it. */
export function notSpace(form: string): (i: number) => boolean {
  return (i) => {
    const code = form.charCodeAt(i);
    return code < 128 ? code !== 32 && (code < 9 || code > 13) : !/\s/.test(form[i]!);
  };
}

/** The rolling hash of `text`'s KEY units at `at`. */
function hash(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + KEY; i++) h = (Math.imul(h, PRIME) + text.charCodeAt(i)) | 0;
  return h;
}
