// YAML with positions: parse (duplicate keys are errors, aliases bounded, __proto__ a plain key)
// and map a path in the data back to a line and column.
//
// Two parsers: `yaml` builds a Document with the position of every node, which diagnostics need,
// but costs about 0.1 ms per step (a 10,000-step file took 0.9 s); js-yaml reads the same YAML 1.2
// core schema into data several times faster, without positions. A file in a plain subset of
// YAML that js-yaml reads cleanly is taken from js-yaml (yaml-fast.ts), and its Document is built
// only if a position is asked for; anything else goes through `yaml`, whose errors are located. A
// file the fast path read but the checks refuse is read again by `yaml` (load.ts), so every
// refusal is `yaml`'s; test/fuzz/properties.test.ts checks that loading gives the same either way.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from './diagnostics.ts';
import { indentationMistake } from './indentation.ts';
import { unclosedFlow } from './unclosed-flow.ts';
import { MAX_JSON_DEPTH, pathPast } from '../text/bounded-json.ts';
import { fastData } from './yaml-fast.ts';
import { sourceOffset } from './scalar-offset.ts';
import { unresolvedAlias } from './unresolved-alias.ts';
import { credentialTagFinding, taggedCredential } from './credential-tag.ts';

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
  // An unknown tag (!custom) is read as its plain value by `yaml`, a warning only: refused, as it means something to whoever wrote it.
  const problems = [...doc.errors, ...doc.warnings.filter((w) => w.code === 'TAG_RESOLVE_FAILED')];
  const diagnostics: Diagnostic[] = problems.map((e) => {
    const at = lines.linePos(e.pos[0]);
    const unclosed =
      e.code === 'BAD_INDENT' ? unclosedFlow(e.message, text, e.pos[0], (o) => lines.linePos(o)) : undefined;
    if (unclosed) return { file, ...unclosed };
    const indent = indentationMistake(e.code, text, at.line);
    if (indent) return { file, ...indent };
    // The key a duplicate is (the error's position is its first character): as written on its line.
    const key = /^("[^"]*"|'[^']*'|[^:,{}[\]]+?)\s*:/.exec(
      (text.split(/\r?\n/)[at.line - 1] ?? '').slice(at.col - 1),
    )?.[1];
    // A credential whose value starts with `!`: said without the tag (its start), and to be quoted.
    const credential = e.code === 'TAG_RESOLVE_FAILED' ? taggedCredential(doc, text, e.pos[1]) : undefined;
    if (credential !== undefined) return { file, line: at.line, col: at.col, ...credentialTagFinding(credential) };
    const message =
      e.code === 'DUPLICATE_KEY'
        ? `duplicate key${key ? ` ${key.startsWith('"') ? key : JSON.stringify(key.replace(/^'|'$/g, ''))}` : ''}: a key may appear once in a mapping`
        : e.code === 'MULTIPLE_DOCS'
          ? 'a second YAML document: a pipeline (or inventory) file is one document'
          : e.code === 'TAG_RESOLVE_FAILED'
            ? `${/tag: (\S+)/.exec(e.message)?.[1] ?? 'this tag'} is not a YAML tag enginectl reads: a value is plain YAML (or !!str, !!int, …)`
            : /Maximum call stack size exceeded/.test(e.message)
              ? TOO_DEEP
              : e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const lineText = text.split(/\r?\n/)[at.line - 1] ?? '';
    const hint =
      e.code === 'DUPLICATE_KEY'
        ? 'remove or rename one of them'
        : e.code === 'MULTIPLE_DOCS'
          ? 'remove the --- line and what follows it, or put each document in a file of its own (include: lists inventories)'
          : e.code === 'TAG_RESOLVE_FAILED'
            ? 'remove the tag'
            : lineText.includes('${{') && /flow|Unexpected/.test(e.message)
              ? 'a ${{ }} inside { } or [ ] must be quoted: "${{ ... }}"'
              : undefined;
    return { file, line: at.line, col: at.col, message, hint };
  });
  const firstPerLine = diagnostics.filter((d, i) => diagnostics.findIndex((o) => o.line === d.line) === i);
  if (firstPerLine.length > 0) return { source, data: undefined, diagnostics: firstPerLine };
  const orphan = unresolvedAlias(doc);
  if (orphan) {
    const { line, col } = lines.linePos(orphan.offset);
    return { source, data: undefined, diagnostics: [{ file, line, col, message: orphan.message, hint: orphan.hint }] };
  }
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
  if (options.offset !== undefined && isScalar(target) && depth === path.length && typeof target.value === 'string') {
    const written = source.text.slice(start, target.range?.[1] ?? start);
    shift = sourceOffset(written, target.type, target.value, options.offset);
  }
  const at = source.lines.linePos(start + shift);
  return { line: at.line, col: at.col };
}
