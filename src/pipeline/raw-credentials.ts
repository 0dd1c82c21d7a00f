// The credentials a pipeline's text writes literally, found line by line in the text as written,
// for a file that failed to load. Its YAML may give no text where a credential is written: a
// generated password that starts with `!`, `&`, `*`, `{` or `#`, or holds `: `, is a tag, an
// anchor, an alias, a flow mapping, a comment or a nested mapping to YAML, and the file fails at
// that very line (or gives null there), so literal-credentials.ts, which reads the YAML as far as
// it parses, finds nothing, while the finding quotes the line and may name the tag or the alias.
// Here: the value of every credential key (credential-keys.ts: password, token, code, ipassword, ...), in
// any case, in a block or a flow mapping (`{ url: ..., password: X }`), quoted or not, the lines
// of a block scalar under one, and every password in a URL on any line. Read leniently, erring on masking more: a plain value up to its
// comment (and, in a flow mapping, its `,` or `}`: a finding may be about a key after it on the
// line, which stays shown), in a block mapping also the whole rest of its line; a quoted one's
// text; and, where YAML reads no text there, each word of it without the indicators around it
// (`!Secret123x` gives `Secret123x` too, `Secret123x: y` gives `Secret123x`). A value YAML reads
// as text is not taken apart: each word would be registered with the CI's masking.
import { literalUrlPasswords } from '../api/url-logins.ts';
import { isCredentialKey } from './credential-keys.ts';

/**
 * A key, quoted or not, where a key starts (a line's indentation, `- `, `{`, `,`, `[`, `?`), and its
 * `:`; the credential keys among them are kept. No key starts inside a bare one (`db-password` is
 * read whole): the search stays linear in the line.
 */
const KEY = /(?<=^|[\s{,[?])(?:"([^"]*)"|'([^']*)'|([\w$.-]+)(?=\s*:(?:\s|$)))\s*:/g;

/** A pipeline's expression, up to its `}}` or the line's end: its secret is the environment's, no literal. */
const EXPRESSION = /\$\{\{[^]*?(?:\}\}|$)/g;
/**
 * A plain value YAML reads as no text: it starts with an indicator (a tag, an anchor, an alias, a
 * flow collection, a comment, a block scalar, a reserved character; `-`, `?` or `:` and a space)
 * or holds a key's `: `.
 */
const STRUCTURED = /^(?:[!&*{}[\],#|>%@`]|[-?:](?:\s|$))|:(?:\s|$)/;
/** The indicators a word of such a value may start or end with. */
const LEADING = /^[!&*{}[\],#|>%@`'"]+/;
const TRAILING = /[,:{}[\]'"]+$/;
/** What the masker takes as a literal: a word of a value that is one is not masked (it would hide a line number). */
const LITERAL = /^(true|false|null|-?\d+(\.\d+)?)$/i;
/** A block scalar's header: `|`, `>`, with its chomping and indentation, and a comment. */
const BLOCK_HEADER = /^[|>][-+0-9]*\s*(#.*)?$/;
/** The shortest text the masker masks in free text (runner/secret-forms.ts MIN_LENGTH): a shorter part of a value is not taken. */
const SHORTEST = 3;

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** The lines of a block scalar (or of a value on the lines below its key) under a key indented by `indent`: each, and all of them. */
function blockLines(lines: string[], from: number, indent: number): { values: string[]; until: number } {
  const out: string[] = [];
  let until = from - 1;
  for (let i = from; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    if (indentOf(lines[i]!) <= indent) break;
    out.push(lines[i]!.trim());
    until = i;
  }
  return { values: out.length > 1 ? [...out, out.join('\n')] : out, until };
}

/** A quoted value's text, up to its closing quote (or the line's end), as written and with `''` or JSON's escapes undone; undefined for a plain value. */
function unquoted(value: string): string[] | undefined {
  if (value[0] === "'") {
    const inside = /^'((?:[^']|'')*)/.exec(value)![1]!;
    return [inside, inside.replace(/''/g, "'")];
  }
  if (value[0] !== '"') return undefined;
  const inside = /^"((?:[^"\\]|\\[^])*\\?)/.exec(value)![1]!;
  try {
    return [inside, JSON.parse(`"${inside}"`) as string];
  } catch {
    return [inside];
  }
}

/** Whether the key at `at` of `line` is in a flow mapping: a `{`, `,` or `[` before it (white space between). */
function inFlow(line: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && /\s/.test(line[i]!)) i--;
  return i >= 0 && '{,['.includes(line[i]!);
}

/**
 * Every candidate for the value written after a credential key (see above). A quoted one: its
 * text (the quotes are shown). A plain one: up to its comment or, in a flow mapping, its `,`, `}`
 * or `]` (the keys after it on the line are shown: a finding may be about one), and in a block
 * mapping the whole rest of the line too; where YAML reads no text there, each word of it too
 * (of a comment, its first), bare of indicators.
 */
function candidates(rest: string, flow: boolean): string[] {
  const value = rest.trim();
  const text = unquoted(value);
  if (text) return text;
  const comment = /\s#/.exec(value)?.index ?? value.length;
  const flowEnd = flow ? (/[,}\]]/.exec(value)?.index ?? value.length) : value.length;
  const narrowest = value.slice(0, Math.min(comment, flowEnd)).trim();
  const out = flow ? [narrowest] : [value, narrowest];
  // A comment's first word only: `#Secret123x` is a password YAML took for one, `# fill in later` a comment.
  const words = narrowest.replace(EXPRESSION, ' ').split(/\s+/);
  if (STRUCTURED.test(narrowest))
    for (const word of narrowest.startsWith('#') ? words.slice(0, 1) : words) {
      const bare = word.replace(LEADING, '').replace(TRAILING, '');
      if (bare.length >= SHORTEST && !LITERAL.test(bare)) out.push(word, bare);
    }
  return out;
}

/**
 * Every credential `text` writes literally, found line by line (see above), each with the key and
 * line it is at. Linear in the text: a value ends at the next credential key on its line, and the
 * lines under a key already taken with a block above are not taken again as a block.
 */
export function rawCredentials(text: string): { value: string; where: string }[] {
  const lines = text.split(/\r?\n|\r/);
  const found = new Map<string, string>();
  const add = (value: string, where: string) => {
    if (value.trim().length >= SHORTEST && !value.includes('${{') && !found.has(value)) found.set(value, where);
  };
  let blockUntil = -1;
  lines.forEach((line, i) => {
    const keys = [...line.matchAll(KEY)].filter((m) => isCredentialKey(m[1] ?? m[2] ?? m[3]!));
    keys.forEach((m, k) => {
      const where = `${m[0].replace(/\s*:$/, '').replace(/^["']|["']$/g, '')} (line ${i + 1})`;
      const rest = line.slice(m.index + m[0].length, keys[k + 1]?.index ?? line.length);
      for (const value of candidates(rest, inFlow(line, m.index))) add(value, where);
      if (i > blockUntil && (rest.trim() === '' || BLOCK_HEADER.test(rest.trim()))) {
        const block = blockLines(lines, i + 1, indentOf(line));
        for (const value of block.values) add(value, where);
        blockUntil = block.until;
      }
    });
    for (const password of literalUrlPasswords(line)) add(password, `url (line ${i + 1})`);
  });
  return [...found].map(([value, where]) => ({ value, where }));
}
