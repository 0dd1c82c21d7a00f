// YAML with positions: parse (duplicate keys are errors, aliases bounded, __proto__ a plain key)
// and map a path in the data back to a line and column.
//
// Two parsers: `yaml` builds a Document with the position of every node, which diagnostics need,
// but costs about 0.1 ms per step (a 10,000-step file took 0.9 s); js-yaml reads the same YAML 1.2
// core schema into data several times faster, without positions. A file in a plain subset of
// YAML that js-yaml reads cleanly is taken from js-yaml, and its Document is built only if a
// position is asked for; anything else goes through `yaml`, whose errors are located. A file the
// fast path read but the checks refuse is read again by `yaml` (load.ts), so every refusal is
// `yaml`'s; test/fuzz/properties.test.ts checks that loading gives the same either way.
import { CORE_SCHEMA, load as fastLoad } from 'js-yaml';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from './diagnostics.ts';
import { indentationMistake } from './indentation.ts';
import { MAX_JSON_DEPTH, pathPast } from '../text/bounded-json.ts';

export type Path = readonly (string | number)[];

export interface YamlSource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export const MAX_ALIAS_COUNT = 100;

function positioned(text: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  // logLevel error: a mapping used as a key is reported by the checks, not as a process warning
  return {
    doc: parseDocument(text, {
      lineCounter: lines,
      uniqueKeys: true,
      prettyErrors: false,
      strict: true,
      logLevel: 'error',
    }),
    lines,
  };
}

/** A source whose Document is parsed on first use. */
function lazySource(file: string, text: string): YamlSource {
  let parsed: ReturnType<typeof positioned> | undefined;
  const get = () => (parsed ??= positioned(text));
  return {
    file,
    text,
    get doc() {
      return get().doc;
    },
    get lines() {
      return get().lines;
    },
  };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /\t|\r(?!\n)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\u2028\u2029]/;
// anchors, aliases, tags (a lone `!` too); explicit keys; document markers; directives; empty keys
// (`{: x}`, `[:[x]]`); a collection as a key: after `{` or `,` in a flow mapping (`{ [a] }`), or
// before a `:` (`[[a]: b]`); an empty sequence entry (`-` with nothing or a comment after it),
// after which js-yaml takes a less indented `- b` into the inner sequence, where `yaml` ends the
// inner sequence or refuses the file
const SYNTAX =
  /(^|[\s,[{:-])[&*!]|(^|[\s,[{])\?(\s|$)|^(---|\.\.\.)(\s|$)|^\s*%|(^|[[{,\s]):(\s|$|[,}\][{])|(?<!\$)[{,]\s*[[{]|[\]}]:|(^|\s)-([ ]+#|[ ]*$)/m;

// plain scalars the two read differently: js-yaml 4 reads binary integers and signed hex and octal
// ones as numbers (`0b101`, `-0x1F`, `+0o7`), `yaml`'s core schema as strings; a signed float with
// no digit before its point (`-.5`) the other way round; a null as a key (`~:`, `null:`) is the key
// "null" to js-yaml, "" to `yaml` (in a flow mapping without its `:` too: `{~}`); a comment glued
// to a quote, a bracket, a brace or a comma (`"x"#`, `{ a: 1 }#`, `[1,#`), which js-yaml reads and
// `yaml` refuses; an integer minus zero (`-0`: 0 to js-yaml, -0 to `yaml`); a number past a double
// (`1e400`, 300 digits: a string to js-yaml, Infinity to `yaml`); a `\U` escape (js-yaml reads one
// past Unicode, `yaml` refuses it); a comment line glued to its `#` (`#x`), which `yaml` reads as
// the end of an implicit key where js-yaml goes on
const SCALAR =
  /(^|[\s,[{:])([-+]?0b|[-+]0[xo]|[-+]\.\d|-0+(\s|$|[,}\]]))|(^|[\s,[{])(~|null|Null|NULL):(\s|$|[,}\]])|[{,]\s*(~|null|Null|NULL)\s*[,}]|["'[\]{},]#|[\d.][eE][-+]?\d{3}|\d{300}|0x[0-9a-fA-F]{250}|\\U|^\s*#\S/m;

/** A key over 1,024 characters, which `yaml` refuses and js-yaml reads: its `:` is past that on its line. */
const MAX_KEY = 1024;

/**
 * Whether the text is in the YAML both parsers read alike (test/fuzz/properties.test.ts looks for
 * counterexamples): no anchors or aliases (which `yaml` must bound), tags, directives, document
 * markers, explicit or empty keys, collections as keys, tabs, lone CRs or control characters, and
 * every quoted scalar and flow collection closed on the line that opens it, no key over 1,024
 * characters, and none of the scalars they resolve differently (SCALAR).
 */
function plainSubset(text: string): boolean {
  return (
    !CONTROL.test(text) &&
    !SYNTAX.test(text) &&
    !SCALAR.test(text) &&
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

/** What nests past MAX_JSON_DEPTH: a value of a pipeline is bounded as every value from outside is. */
const TOO_DEEP = `the document nests too deeply (more than ${MAX_JSON_DEPTH} levels)`;

/** A document nested past MAX_JSON_DEPTH, said where it goes past (every later walk of its data recurses). */
function nestingProblem(source: YamlSource, data: unknown): Diagnostic | undefined {
  const path = pathPast(data, MAX_JSON_DEPTH);
  return (
    path && {
      file: source.file,
      ...locate(source, path),
      message: TOO_DEEP,
      hint: `nest it less: a value of a pipeline or an inventory is at most ${MAX_JSON_DEPTH} levels deep`,
    }
  );
}

export function parseYaml(
  file: string,
  text: string,
  options: { fast?: boolean } = {},
): { source: YamlSource; data: unknown; diagnostics: Diagnostic[]; fast?: boolean } {
  const fast = options.fast === false ? undefined : fastData(text);
  if (fast) {
    const source = lazySource(file, text);
    const deep = nestingProblem(source, fast.data);
    return deep
      ? { source, data: undefined, diagnostics: [deep], fast: true }
      : { source, data: fast.data, diagnostics: [], fast: true };
  }
  const { doc, lines } = positioned(text);
  const source = { file, text, doc, lines };
  const diagnostics: Diagnostic[] = doc.errors.map((e) => {
    const at = lines.linePos(e.pos[0]);
    const indent = indentationMistake(e.code, text, at.line);
    if (indent) return { file, ...indent };
    const message =
      e.code === 'DUPLICATE_KEY'
        ? 'duplicate key: a key may appear once in a mapping'
        : /Maximum call stack size exceeded/.test(e.message)
          ? TOO_DEEP
          : e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const lineText = text.split(/\r?\n/)[at.line - 1] ?? '';
    const hint =
      e.code === 'DUPLICATE_KEY'
        ? 'remove or rename one of them'
        : lineText.includes('${{') && /flow|Unexpected/.test(e.message)
          ? 'a ${{ }} inside { } or [ ] must be quoted: "${{ ... }}"'
          : undefined;
    return { file, line: at.line, col: at.col, message, hint };
  });
  const firstPerLine = diagnostics.filter((d, i) => diagnostics.findIndex((o) => o.line === d.line) === i);
  if (firstPerLine.length > 0) return { source, data: undefined, diagnostics: firstPerLine };
  try {
    const data: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    const deep = nestingProblem(source, data);
    return deep ? { source, data: undefined, diagnostics: [deep] } : { source, data, diagnostics };
  } catch (error) {
    return {
      source,
      data: undefined,
      diagnostics: [
        {
          file,
          line: 1,
          col: 1,
          message: `the document expands too far: ${(error as Error).message}`,
          hint: `use fewer aliases (at most ${MAX_ALIAS_COUNT} expansions)`,
        },
      ],
    };
  }
}

/** The node at `path` (or the deepest one that exists), and its pair when it is a map value. */
function walk(source: YamlSource, path: Path): { node: YamlNode | null; keyNode: YamlNode | null; depth: number } {
  let node = source.doc.contents as YamlNode | null;
  let keyNode: YamlNode | null = null;
  let depth = 0;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part));
      if (!pair) break;
      keyNode = pair.key as YamlNode;
      node = pair.value as YamlNode | null;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part]) {
      keyNode = null;
      node = node.items[part] as YamlNode;
    } else break;
    depth++;
  }
  return { node, keyNode, depth };
}

export interface Position {
  line: number;
  col: number;
}

/**
 * The position of the value at `path` (or of its key, with `key`). When the path does not
 * exist (a missing key), the position of the deepest part that does.
 */
export function locate(source: YamlSource, path: Path, options: { key?: boolean; offset?: number } = {}): Position {
  const { node, keyNode, depth } = walk(source, path);
  const target =
    options.key && keyNode && depth === path.length
      ? keyNode
      : depth < path.length && keyNode
        ? keyNode
        : (node ?? keyNode);
  const start = target?.range?.[0] ?? 0;
  let shift = 0;
  if (options.offset !== undefined && isScalar(target) && depth === path.length) {
    shift = options.offset + (target.type === 'QUOTE_DOUBLE' || target.type === 'QUOTE_SINGLE' ? 1 : 0);
    if (target.type === 'BLOCK_LITERAL' || target.type === 'BLOCK_FOLDED') shift = 0;
  }
  const at = source.lines.linePos(start + shift);
  return { line: at.line, col: at.col };
}
