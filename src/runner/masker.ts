// Longer than 250 lines: one class, whose forms, alternations and memos the text and the value
// maskers share (a value's JSON secret is learnt as a text form); split, each would reach into the other.
// Secrets registered once, then masked in values and in log lines: as written, in hex (any case), in
// base64 (four spellings, inside longer values too, wrapped at a fixed width: wrapped-base64.ts) and
// each line of a multi-line secret, however the text escapes them (JSON, URL, form, HTML) or a page
// would join them again (Markdown, links, zero-width characters: text/decoded-view.ts) or a terminal
// (its escape sequences: text/terminal-view.ts). Reports are masked as values (maskValue, through
// the model: mask-model.ts) before they are rendered, so a secret whose value is `true` or `ver`
// never breaks the JSON or XML written; a credential field (targetAuthToken, ...) is masked whole,
// as is a field that is a JSON secret written another way (keys reordered: json-secrets.ts), then
// learnt as written for the texts that give it (a message, a log line), and a typed number that
// is a secret of 6 digits or more (secret-numbers.ts).
// Many secrets (a login per site) are searched for through an index of their forms (form-index.ts).
import { viewIsRaw } from '../text/decoded-view.ts';
import { CREDENTIAL_FIELDS } from '../api/credentials.ts';
import { MASK } from '../text/mask.ts';
import { escapeRegExp } from '../text/escape.ts';
import { ciForms, hasHexRun, hexRuns, MIN_LENGTH, secretForms, secretHexForms } from './secret-forms.ts';
import { maskViews, matches, viewPattern, viewPlain } from './mask-views.ts';
import { maskSpans, maskWrapped } from './wrapped-base64.ts';
import { Alternation, notSpace } from './form-index.ts';
import { Remembered } from './remembered.ts';
import { JsonSecrets } from './json-secrets.ts';
import { NUMBER_MIN_LENGTH, readsAsLiteral, secretNumber } from './secret-numbers.ts';

export { MASK, MIN_LENGTH };

export interface MaskerHooks {
  /** Hears each new form, e.g. to register it with a CI system's own log masking. */
  onSecret?: (form: string) => void;
  /** Hears a secret that is not masked everywhere (too short or a literal for free text, or not given to the CI system), by its name (never its value). */
  onWeak?: (name: string, why: string) => void;
}

export class Masker {
  private readonly forms = new Set<string>();
  /** The hex forms, searched only where a text holds a run of hex digits (secret-forms.ts hasHexRun). */
  private readonly hexForms = new Set<string>();
  private readonly announced = new Set<string>(); // the spellings given to onSecret so far
  private readonly secrets = new Set<string>(); // added so far: a target token is added at every instance
  private readonly weak = new Set<string>();
  /** The secrets that are numbers, as JSON writes them: a typed number equal to one is masked in values (secret-numbers.ts). */
  private readonly numbers = new Set<string>();
  private readonly unannounced = new Set<string>(); // added, but not given to onSecret
  private readonly unannouncedNames = new Set<string>(); // warned of, by name
  /** The JSON secrets: for fromJSON() of a text a server answered back, and such a text whole. */
  readonly json = new JsonSecrets();
  private readonly learntFrom = new WeakMap<Masker, number>(); // learnt from, with how many forms each had then
  /** The forms as written (white space as any run of it), as a reader sees them once every escape is
   * undone, and the hex forms (in any case: a server may write `6A6b...`): each one alternation, longest first. */
  private readonly raw: Alternation;
  private readonly view: Alternation;
  private readonly hex: Alternation;
  private longest = 0;

  /** `indexFrom`: from how many forms each alternation is searched through its index (form-index.ts; tests only). */
  constructor(
    private readonly on: MaskerHooks = {},
    indexFrom?: number,
  ) {
    this.raw = new Alternation('g', (form) => escapeRegExp(form).replace(/\s+/g, '\\s+'), indexFrom);
    this.view = new Alternation('g', viewPattern, indexFrom);
    this.hex = new Alternation('gi', (form) => form, indexFrom);
  }

  /**
   * Registers a secret; `name` says which one in a warning when it is too short to mask in text.
   * `unannounced`: why it is not given to the CI system (onSecret), told once a name (onWeak); it is
   * masked all the same, and announced when it is added again without a reason.
   */
  add(secret: string | undefined | null, name = 'a secret', unannounced?: string): void {
    if (typeof secret !== 'string' || secret === '') return;
    if (secret.trim().length < MIN_LENGTH) {
      if (!this.weak.has(name)) {
        this.weak.add(name);
        this.on.onWeak?.(
          name,
          `${name} is shorter than ${MIN_LENGTH} characters: it is masked in credential fields, not in free text`,
        );
      }
      return;
    }
    const number = secretNumber(secret);
    if (number !== undefined) this.numbers.add(number);
    else if (readsAsLiteral(secret) && !this.weak.has(name)) {
      this.weak.add(name);
      this.on.onWeak?.(
        name,
        `${name} is a number or a literal (true, false, null): it is masked in text, but a number or literal equal to it is shown as is (a number is masked as a number from ${NUMBER_MIN_LENGTH} characters)`,
      );
    }
    if (this.secrets.has(secret)) {
      if (unannounced === undefined && this.unannounced.delete(secret)) this.announce(secret);
      return;
    }
    this.secrets.add(secret);
    this.json.add(secret);
    if (unannounced === undefined) this.announce(secret);
    else {
      this.unannounced.add(secret);
      if (!this.unannouncedNames.has(name)) this.on.onWeak?.(name, unannounced);
      this.unannouncedNames.add(name);
    }
    for (const form of secretForms(secret)) {
      if (this.forms.has(form)) continue;
      this.forms.add(form);
      this.raw.add(form, notSpace(form));
      this.view.add(form, viewPlain(form));
      this.longest = Math.max(this.longest, form.length);
    }
    for (const form of secretHexForms(secret)) {
      if (this.hexForms.has(form)) continue;
      this.hexForms.add(form);
      this.hex.add(form);
      this.longest = Math.max(this.longest, form.length);
    }
  }

  /** Gives each spelling of `secret` the CI system's masking is told (ciForms) to onSecret, once. */
  private announce(secret: string): void {
    for (const form of ciForms(secret)) {
      if (this.announced.has(form)) continue;
      this.announced.add(form);
      this.on.onSecret?.(form);
    }
  }

  /**
   * Learns every form `other` masks (a run limited by --only learns those of the whole file,
   * runner/file-secrets.ts), with the keys it found for them: masked as if each secret had been
   * added, but neither announced to the CI system (onSecret) nor warned of again. A secret added
   * later is announced as any other.
   */
  learnFrom(other: Masker): void {
    // Once for each state of `other`: a shard worker prepares each of its sites' runs with it.
    const version = other.forms.size + other.hexForms.size;
    if (this.learntFrom.get(other) === version) return;
    this.learntFrom.set(other, version);
    this.json.learnFrom(other.json);
    for (const number of other.numbers) this.numbers.add(number);
    const [raw, view, hex] = [other.raw.keyed(), other.view.keyed(), other.hex.keyed()];
    let i = 0;
    for (const form of other.forms) {
      if (!this.forms.has(form)) {
        this.forms.add(form);
        this.raw.addKeyed(form, raw[i]);
        this.view.addKeyed(form, view[i]);
      }
      i++;
    }
    i = 0;
    for (const form of other.hexForms) {
      if (!this.hexForms.has(form)) {
        this.hexForms.add(form);
        this.hex.addKeyed(form, hex[i]);
      }
      i++;
    }
    this.longest = Math.max(this.longest, other.longest);
  }

  /**
   * A server's password, and the Basic credentials built from it: the `user:password` pair (whose
   * base64 forms are the Authorization header's) and the header's value itself, which a server
   * may encode again.
   */
  addLogin(username: string | undefined, password: string | undefined, name: string): void {
    if (password === undefined) return;
    const pair = `${username ?? ''}:${password}`;
    for (const secret of [password, pair, Buffer.from(pair).toString('base64')]) this.add(secret, name);
  }

  /** `text` with every form as written replaced: the hex forms only inside runs of hex digits. */
  private maskRaw(text: string): string {
    const raw = this.raw.for(text);
    const spans: [number, number][] = [];
    if (this.hex.size > 0 && hasHexRun(text))
      for (const [from, to] of hexRuns(text)) {
        const run = text.slice(from, to);
        const hex = this.hex.for(run);
        if (hex) matches(hex, run, from, spans);
      }
    if (spans.length === 0) return raw ? text.replace(raw, MASK) : text;
    return maskSpans(text, raw ? matches(raw, text, 0, spans) : spans);
  }

  /** A line of text with every form of every secret replaced, however it is escaped: for logs and messages. */
  mask(text: string): string {
    if (this.forms.size === 0) return text;
    // An update's report is met several times (its output, its result, the whole result again),
    // and a short text (a key, a status, a version) at every instance of a fleet: each is
    // searched once while the secrets stay the same. Fewer long texts are kept than short ones.
    const memo = text.length >= LONG_TEXT ? this.long : text.length <= SHORT_TEXT ? this.short : this.medium;
    const version = this.forms.size + this.hexForms.size;
    const known = memo.get(text, version);
    if (known !== undefined) return known;
    const raw = maskWrapped(this.maskRaw(text), this.raw, this.hex, this.longest);
    const forms = { view: this.view, hex: this.hex, longest: this.longest };
    const masked = !viewIsRaw(raw) ? maskViews(raw, forms) : raw;
    memo.set(text, masked, version);
    return masked;
  }

  private readonly long = new Remembered(8);
  private readonly medium = new Remembered(64);
  private readonly short = new Remembered(4096);

  /**
   * `value` with every string (and key) masked and every credential field replaced. Copied on
   * write: an array or plain object in which nothing changes is returned as it is (most answers
   * hold no secret, and a run's result is masked again at its end), one in which something
   * changes is copied (the original is never modified). Booleans and null are typed values, never
   * text, and stay as they are, as does a number, unless it is a secret or its negative (of 6
   * digits or more: secret-numbers.ts) or in a credential field; a key whose value is undefined is
   * left out.
   */
  maskValue<T>(value: T): T {
    return this.walk(value, false) as T;
  }

  /**
   * `value` masked as maskValue did before it masked typed numbers: every number as it is. Only
   * for a digest compared with one a journal of then holds (runner/instance-end.ts), never written.
   */
  maskValueAsBefore<T>(value: T): T {
    this.typedNumbers = false;
    try {
      return this.walk(value, false) as T;
    } finally {
      this.typedNumbers = true;
    }
  }

  private typedNumbers = true;

  /** A JSON secret written another way, learnt as written: a message or a log line that gives it is text. */
  private learnWritten(texts: readonly string[]): string {
    for (const text of texts) this.add(text, 'a JSON secret written another way');
    return MASK;
  }

  private walk(value: unknown, credential: boolean): unknown {
    if (typeof value === 'string') {
      if (credential && value !== '') return MASK;
      return this.json.isWritten(value) ? this.learnWritten([value]) : this.mask(value);
    }
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const masked = this.walk(value[i], credential);
        if (out === undefined && masked !== value[i]) out = value.slice(0, i);
        out?.push(masked);
      }
      return out ?? value;
    }
    if (value && typeof value === 'object') {
      const written = this.json.writtenForms(value);
      if (written.length > 0) return this.learnWritten(written);
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        return this.walk((value as { toJSON(): unknown }).toJSON(), credential);
      const proto: unknown = Object.getPrototypeOf(value);
      const source = value as Record<string, unknown>;
      const keys = Object.keys(source);
      // Anything but a plain object (a class's instance) becomes a plain copy.
      let out = proto === Object.prototype || proto === null ? undefined : copyHead(source, keys, 0, false);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const v = source[k];
        const key = this.mask(k);
        const masked = v === undefined ? undefined : this.walk(v, CREDENTIAL_FIELDS.has(k));
        if (out === undefined && (v === undefined || key !== k || masked !== v))
          out = copyHead(source, keys, i, proto === null);
        if (out !== undefined && v !== undefined) set(out, key, masked);
      }
      return out ?? value;
    }
    if (
      typeof value === 'number' &&
      this.typedNumbers &&
      (credential || (this.numbers.size > 0 && (this.numbers.has(String(value)) || this.numbers.has(String(-value)))))
    )
      return MASK;
    // booleans, null, other numbers; functions and symbols do not occur in results
    return value;
  }
}

/** A text this long, or this short, is remembered once masked (Masker.mask). */
const LONG_TEXT = 1 << 16;
const SHORT_TEXT = 256;

/** A plain object holding the first `count` entries of `source` (unchanged so far). */
function copyHead(source: Record<string, unknown>, keys: string[], count: number, nullProto: boolean) {
  const out: Record<string, unknown> = Object.create(nullProto ? null : Object.prototype);
  for (let i = 0; i < count; i++) if (source[keys[i]!] !== undefined) set(out, keys[i]!, source[keys[i]!]);
  return out;
}

/**
 * Assignment is several times faster than defineProperty; only `__proto__` on an object with a
 * prototype would set the prototype instead of a key.
 */
function set(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
