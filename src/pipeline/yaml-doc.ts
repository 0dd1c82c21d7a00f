// YAML with positions: parse (duplicate keys are errors, aliases bounded, __proto__ a plain key)
// and map a path in the data back to a line and column.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from './diagnostics.ts';

export type Path = readonly (string | number)[];

export interface YamlSource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export const MAX_ALIAS_COUNT = 100;

export function parseYaml(file: string, text: string): { source: YamlSource; data: unknown; diagnostics: Diagnostic[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  const source = { file, text, doc, lines };
  const diagnostics: Diagnostic[] = doc.errors.map((e) => {
    const at = lines.linePos(e.pos[0]);
    const message = e.code === 'DUPLICATE_KEY' ? 'duplicate key: a key may appear once in a mapping' : e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
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
    return { source, data: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), diagnostics };
  } catch (error) {
    return {
      source,
      data: undefined,
      diagnostics: [{ file, line: 1, col: 1, message: `the document expands too far: ${(error as Error).message}`, hint: `use fewer aliases (at most ${MAX_ALIAS_COUNT} expansions)` }],
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
  const target = options.key && keyNode && depth === path.length ? keyNode : depth < path.length && keyNode ? keyNode : node ?? keyNode;
  const start = target?.range?.[0] ?? 0;
  let shift = 0;
  if (options.offset !== undefined && isScalar(target) && depth === path.length) {
    shift = options.offset + (target.type === 'QUOTE_DOUBLE' || target.type === 'QUOTE_SINGLE' ? 1 : 0);
    if (target.type === 'BLOCK_LITERAL' || target.type === 'BLOCK_FOLDED') shift = 0;
  }
  const at = source.lines.linePos(start + shift);
  return { line: at.line, col: at.col };
}
