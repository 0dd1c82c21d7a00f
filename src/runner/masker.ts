// Secrets registered once, then masked in values and in log lines: as written, in hex (any case), in base64
// (four spellings, inside longer values too, wrapped at a fixed width: runner/wrapped-base64.ts)
// and each line of a multi-line secret, however the text
// escapes them (JSON, URL, form, HTML references) or a page would join them again (Markdown
// emphasis, code, links, zero-width characters): text/decoded-view.ts; or a terminal would (whole
// escape sequences between its parts): text/terminal-view.ts. Reports are masked as
// values (maskValue) before they are rendered, so a secret whose value is `true`, `null` or `ver`
// never breaks the JSON or XML a renderer writes; a credential field (targetAuthToken, a target's
// password, ...) is masked whole, whatever its length.

import { viewIsRaw } from '../text/decoded-view.ts';
import { CREDENTIAL_FIELDS } from '../api/credentials.ts';
import { MASK } from '../text/mask.ts';
import { escapeRegExp } from '../text/escape.ts';
import { ciForms, hasHexRun, hexRuns, MIN_LENGTH, secretForms, secretHexForms } from './secret-forms.ts';
import { maskViews, matches, viewPattern } from './mask-views.ts';
import { maskSpans, maskWrapped } from './wrapped-base64.ts';

export { MASK };
export { MIN_LENGTH };

export interface MaskerHooks {
  /** Hears each new form, e.g. to register it with a CI system's own log masking. */
  onSecret?: (form: string) => void;
  /** Hears a secret that cannot be masked safely in free text, by its name (never its value). */
  onWeak?: (name: string, why: string) => void;
}

export class Masker {
  private readonly forms = new Set<string>();
  /** The hex forms, searched only where a text holds a run of hex digits (secret-forms.ts hasHexRun). */
  private readonly hexForms = new Set<string>();
  /** The spellings given to onSecret so far. */
  private readonly announced = new Set<string>();
  /** The secrets added so far: a step's target token is added again at every instance. */
  private readonly secrets = new Set<string>();
  private readonly weak = new Set<string>();
  private patterns: Patterns | undefined;

  constructor(private readonly on: MaskerHooks = {}) {}

  /** Registers a secret; `name` says which one in a warning when it is too short to mask in text. */
  add(secret: string | undefined | null, name = 'a secret'): void {
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
    if (/^(true|false|null|-?\d+(\.\d+)?)$/i.test(secret.trim()) && !this.weak.has(name)) {
      this.weak.add(name);
      this.on.onWeak?.(
        name,
        `${name} is a number or a literal (true, false, null): it is masked in text, but a number or literal equal to it is shown as is`,
      );
    }
    if (this.secrets.has(secret)) return;
    this.secrets.add(secret);
    for (const form of ciForms(secret)) {
      if (this.announced.has(form)) continue;
      this.announced.add(form);
      this.on.onSecret?.(form);
    }
    for (const form of secretForms(secret)) this.forms.add(form);
    for (const form of secretHexForms(secret)) this.hexForms.add(form);
    this.patterns = undefined;
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

  /**
   * The forms as written, longest first (white space as any run of it), and as a reader sees them
   * once every escape is undone; the hex forms apart, in any case, for runs of hex digits only.
   */
  private compiled(): Patterns | undefined {
    if (this.patterns || this.forms.size === 0) return this.patterns;
    const forms = [...this.forms].sort((a, b) => b.length - a.length);
    const hex = [...this.hexForms].sort((a, b) => b.length - a.length);
    const raw = forms.map((f) => escapeRegExp(f).replace(/\s+/g, '\\s+'));
    const view = forms.map(viewPattern);
    this.patterns = {
      raw: new RegExp(raw.join('|'), 'g'),
      // Hex in any case: a server may write `6A6b...` as well as all-lower or all-upper.
      hex: hex.length ? new RegExp(hex.join('|'), 'gi') : undefined,
      view: view.length ? new RegExp(view.join('|'), 'g') : undefined,
      longest: Math.max(forms[0]!.length, hex[0]?.length ?? 0),
    };
    return this.patterns;
  }

  /** `text` with every form as written replaced: the hex forms only inside runs of hex digits. */
  private maskRaw(text: string, patterns: Patterns): string {
    const hex = patterns.hex && hasHexRun(text) ? patterns.hex : undefined;
    if (!hex) return text.replace(patterns.raw, MASK);
    const spans: [number, number][] = [];
    for (const [from, to] of hexRuns(text)) matches(hex, text.slice(from, to), from, spans);
    if (spans.length === 0) return text.replace(patterns.raw, MASK);
    return maskSpans(text, matches(patterns.raw, text, 0, spans));
  }

  /** A line of text with every form of every secret replaced, however it is escaped: for logs and messages. */
  mask(text: string): string {
    const patterns = this.compiled();
    if (!patterns) return text;
    // An update's report is met several times (its output, its result, the whole result again),
    // and a short text (a key, a status, a version) at every instance of a fleet: each is
    // searched once while the secrets stay the same. Fewer long texts are kept than short ones.
    const memo = text.length >= LONG_TEXT ? this.long : text.length <= SHORT_TEXT ? this.short : this.medium;
    const version = this.forms.size + this.hexForms.size;
    const known = memo.get(text, version);
    if (known !== undefined) return known;
    const raw = maskWrapped(this.maskRaw(text, patterns), patterns.raw, patterns.hex, patterns.longest);
    const masked = patterns.view && !viewIsRaw(raw) ? maskViews(raw, { ...patterns, view: patterns.view }) : raw;
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
   * changes is copied (the original is never modified). Numbers, booleans and null are typed
   * values, never text, and stay as they are; a key whose value is undefined is left out.
   */
  maskValue<T>(value: T): T {
    return this.walk(value, false) as T;
  }

  private walk(value: unknown, credential: boolean): unknown {
    if (typeof value === 'string') return credential && value !== '' ? MASK : this.mask(value);
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
    // numbers, booleans, null; functions and symbols do not occur in results
    return value;
  }
}

interface Patterns {
  raw: RegExp;
  hex: RegExp | undefined;
  view: RegExp | undefined;
  /** The longest form's length: how far around a wrapped line's break a form may reach. */
  longest: number;
}

/** A text this long, or this short, is remembered once masked (Masker.mask). */
const LONG_TEXT = 1 << 16;
const SHORT_TEXT = 256;

/** The last `capacity` texts and their masked forms, for one set of secrets (`version`: how many forms it had). */
class Remembered {
  private readonly entries = new Map<string, string>();
  private version = -1;

  constructor(private readonly capacity: number) {}

  get(text: string, version: number): string | undefined {
    return version === this.version ? this.entries.get(text) : undefined;
  }

  set(text: string, masked: string, version: number): void {
    if (version !== this.version) this.entries.clear();
    this.version = version;
    this.entries.set(text, masked);
    if (masked !== text) this.entries.set(masked, masked);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** A plain object holding the first `count` entries of `source` (unchanged so far). */
function copyHead(
  source: Record<string, unknown>,
  keys: string[],
  count: number,
  nullProto: boolean,
): Record<string, unknown> {
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
