// The fast path of reading YAML (yaml-doc.ts): js-yaml, several times faster than `yaml` and
// without positions, trusted only on a plain subset of YAML that both read alike. What js-yaml
// reads otherwise is declined and goes to `yaml`; test/fuzz (the properties, and the sweep of
// every one-character slip) looks for what is missing here.
import { CORE_SCHEMA, load as fastLoad } from 'js-yaml';

// eslint-disable-next-line no-control-regex
const CONTROL = /\t|\r(?!\n)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\u2028\u2029]/;
/**
 * What js-yaml reads otherwise than `yaml` (or reads where `yaml` refuses), each sent to `yaml`.
 * Found by test/fuzz (the properties, and the sweep of every one-character slip); each kind is
 * declined here, never patched around.
 */
const DIVERGENT: readonly RegExp[] = [
  // syntax `yaml` bounds or reads its own way: anchors, aliases, tags (a lone `!` too)
  /(^|[\s,[{:-])[&*!]/,
  // explicit keys, document markers, directives
  /(^|[\s,[{])\?(\s|$)|^(---|\.\.\.)(\s|$)|^\s*%/,
  // empty keys (`{: x}`, `[:[x]]`)
  /(^|[[{,\s]):(\s|$|[,}\][{])/,
  // a collection as a key: after `{` or `,` in a flow mapping (`{ [a] }`), or before a `:` (`[[a]: b]`)
  /(?<!\$)[{,]\s*[[{]|[\]}]:/,
  // an empty sequence entry (`-` with nothing or a comment after it): js-yaml takes a less indented
  // `- b` into the inner sequence, where `yaml` ends it or refuses the file
  /(^|\s)-([ ]+#|[ ]*$)/,
  // binary integers, signed hex and octal ones (numbers to js-yaml 4, strings to `yaml`'s core
  // schema); a signed float with no digit before its point (`-.5`, the other way round); minus
  // zero (0 to js-yaml, -0 to `yaml`)
  /(^|[\s,[{:])([-+]?0b|[-+]0[xo]|[-+]\.\d|-0+(\s|$|[,}\]]))/,
  // a null as a key (`~:`, `null:`, `{~}`): "null" to js-yaml, "" to `yaml`
  /(^|[\s,[{])(~|null|Null|NULL):(\s|$|[,}\]])|[{,]\s*(~|null|Null|NULL)\s*[,}]/,
  // a comment glued to a quote, a bracket, a brace or a comma (`"x"#`, `{ a: 1 }#`, `[1,#`), or a
  // comment line glued to its `#` (`yaml` ends an implicit key there, js-yaml goes on)
  /["'[\]{},]#|^\s*#\S/,
  // a number past a double (`1e400`, 300 digits): a string to js-yaml, Infinity to `yaml`
  /[\d.][eE][-+]?\d{3}|\d{300}|0x[0-9a-fA-F]{250}/,
  // a `\U` escape: js-yaml reads one past Unicode, `yaml` refuses it
  /\\U/,
];
/** DIVERGENT as one pattern, so the text is scanned once. */
const DECLINED = new RegExp(DIVERGENT.map((p) => `(?:${p.source})`).join('|'), 'm');

/** A key over 1,024 characters, which `yaml` refuses and js-yaml reads: its `:` is past that on its line. */
const MAX_KEY = 1024;

/**
 * Whether the text is in the YAML both parsers read alike (test/fuzz/properties.test.ts looks for
 * counterexamples): no anchors or aliases (which `yaml` must bound), tags, directives, document
 * markers, explicit or empty keys, collections as keys, tabs, lone CRs or control characters, and
 * every quoted scalar and flow collection closed on the line that opens it, no key over 1,024
 * characters, and nothing they read differently (DIVERGENT).
 */
function plainSubset(text: string): boolean {
  return (
    !CONTROL.test(text) &&
    !DECLINED.test(text) &&
    text.split('\n').every((line) => closedOnItsLine(line) && line.lastIndexOf(':') <= MAX_KEY)
  );
}

/** Whether every quoted scalar and [ ] { } that opens on this line (outside a comment) closes on it. */
function closedOnItsLine(line: string): boolean {
  let quote: string | undefined;
  let depth = 0;
  let previous = ' ';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = undefined;
    } else if (quote === "'") {
      if (c === "'" && line[i + 1] === "'") i++;
      else if (c === "'") quote = undefined;
    } else if (c === '#' && /\s/.test(previous)) break;
    else if ((c === '"' || c === "'") && /[\s,[{:-]/.test(previous)) quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    previous = c;
  }
  return quote === undefined && depth === 0;
}

/** The data by js-yaml, or undefined when it cannot be trusted to equal `yaml`'s reading. */
export function fastData(text: string): { data: unknown } | undefined {
  if (!plainSubset(text)) return undefined;
  try {
    return { data: fastLoad(text, { schema: CORE_SCHEMA }) ?? null };
  } catch {
    return undefined; // `yaml` says where and why
  }
}
