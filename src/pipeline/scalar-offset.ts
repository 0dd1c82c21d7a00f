// Where a character of a string's value is in the file. A scalar's value is not its text as
// written: quotes, a double-quoted string's escapes (`\t`, `\u00e9`), a single-quoted one's `''`,
// line breaks folded into spaces, a block's header and indentation. An offset into the value (an
// expression's problem) is walked through the text: a character the value holds is matched, one
// it does not (a quote, indentation, a header) is passed, an escape is one or two characters.
import type { Scalar } from 'yaml';

/** The offset in `text` (the scalar as written, from its first character) of the value's character at `offset`. */
export function sourceOffset(text: string, type: Scalar.Type | undefined, value: string, offset: number): number {
  const block = type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED';
  let s = block ? text.indexOf('\n') + 1 : type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE' ? 1 : 0;
  const escapes = type === 'QUOTE_DOUBLE';
  for (let v = 0; v < offset && s < text.length;) {
    if (escapes && text[s] === '\\') {
      const [length, produced] = escape(text, s);
      s += length;
      v += produced;
    } else if (text[s] === value[v]) {
      s++;
      v++;
    } else s++;
  }
  // The end of the value (an expression that ends too early): where the walk stopped, after its last character.
  if (offset >= value.length) return Math.min(s, text.length);
  // Past what comes before the character (indentation, a folded line break) to the character itself.
  while (s < text.length && text[s] !== value[offset] && !(escapes && text[s] === '\\')) s++;
  return s < text.length ? s : 0;
}

/** A double-quoted string's escape at `at`: how many characters of the text, how many of the value. */
function escape(text: string, at: number): [length: number, produced: number] {
  const c = text[at + 1];
  // A line break escaped: the line goes on, nothing in the value (the next line's indentation is passed as any).
  if (c === '\n') return [2, 0];
  if (c === '\r') return [text[at + 2] === '\n' ? 3 : 2, 0];
  if (c === 'x') return [4, 1];
  if (c === 'u') return [6, 1];
  // \U: a code point past U+FFFF is two UTF-16 units of the value.
  if (c === 'U') return [10, parseInt(text.slice(at + 2, at + 10), 16) > 0xffff ? 2 : 1];
  return [2, 1];
}
