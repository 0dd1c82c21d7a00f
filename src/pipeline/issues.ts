// zod issues as diagnostics: a position in the file, a message to act on, "did you mean" for keys and step types.
import { isMap } from 'yaml';
import { z } from 'zod';
import { STEP_NAMES } from '../steps/registry.ts';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { locate, type Path, type YamlSource } from './yaml-doc.ts';
import { typeMismatch, typeName } from './type-words.ts';

/** steps[2].with.target */
export function pathLabel(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The keys a schema accepts at `path` (for "did you mean"), walking objects, arrays and records. */
export function keysAt(schema: z.ZodType, path: Path): string[] {
  let current: z.ZodType | undefined = schema;
  const typeOf = (o: z.ZodType) => (o as unknown as { def: { type: string } }).def.type;
  for (const part of [...path, null]) {
    for (let guard = 0; current && guard < 10; guard++) {
      const wrapper: { type: string; innerType?: z.ZodType; options?: z.ZodType[]; in?: z.ZodType } = (
        current as unknown as { def: { type: string } }
      ).def;
      const def = wrapper;
      if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') current = def.innerType;
      else if (def.type === 'pipe') current = def.in;
      else if (def.type === 'union')
        // An input is its type or an expression (a string): the branch the next part walks into.
        current =
          (typeof part === 'number' ? def.options?.find((o) => typeOf(o) === 'array') : undefined) ??
          def.options?.find((o) => typeOf(o) === 'object') ??
          def.options?.find((o) => typeOf(o) === 'record' || typeOf(o) === 'array') ??
          def.options?.[0];
      else break;
    }
    if (!current) return [];
    const def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType } = (
      current as unknown as { def: { type: string } }
    ).def;
    if (part === null) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
    if (def.type === 'object' && def.shape)
      current = Object.hasOwn(def.shape, String(part)) ? def.shape[String(part)] : undefined;
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'record') current = def.valueType;
    else return [];
  }
  return [];
}

type Issue = z.core.$ZodIssue & { input?: unknown };
/** What to write for a missing key, where it is not obvious. */
function missingHint(base: Path, path: Path): string | undefined {
  if (base.length === 0 && path.length === 1 && path[0] === 'version')
    return 'start the file with `version: 1`, the file format version';
  return path[path.length - 1] === 'uses'
    ? `every step says what it does: uses: ${STEP_NAMES.slice(0, 4).join(', ')}, …`
    : undefined;
}

/** A rollout's keys, which the contract also names on a matrix step. */
const ROLLOUT_KEYS = ['waves', 'max-failures', 'analysis'];

/** Where an expression is read, for a key that reads none (docs/pipeline-format.md, Expressions). */
const LITERAL_HINT =
  "write the value itself (90s, 3, true): this key is fixed when the file is loaded; expressions are read in vars, name, servers (but timeout and max-response-size), targets, and a step's name, if, server and with (docs/pipeline-format.md, Expressions)";

/** Diagnostics for the issues of parsing the value at `base` with `schema`. */
export function issueDiagnostics(
  source: YamlSource,
  issues: readonly Issue[],
  base: Path,
  schema: z.ZodType,
  where = '',
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (path: Path, message: string, hint?: string, key = false) => {
    const pos = locate(source, [...base, ...path], { key });
    out.push({ file: source.file, line: pos.line, col: pos.col, message, hint });
  };
  // Where a missing key goes: the base as `where` names it, or the mapping below it by its path.
  const inPlace = (parent: Path) =>
    parent.length === 0 ? (where ? ` in ${where}` : '') : ` in ${pathLabel([...base, ...parent])}`;
  const literal = new Set<string>();
  for (const issue of issues) {
    const path = issue.path as Path;
    const label = pathLabel([...base, ...path]);
    // A key that takes no expression, given one: said as such, once, not as the type it is not.
    const value = issue.code === 'unrecognized_keys' ? undefined : source.doc.getIn([...base, ...path]);
    if (typeof value === 'string' && value.includes('${{')) {
      if (!literal.has(label)) at(path, `${label} takes no expression`, LITERAL_HINT);
      literal.add(label);
      continue;
    }
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const known = keysAt(schema, path);
          // `where` names the base (the inputs of a step type); a key deeper down is told at its path.
          const place = where && path.length === 0 ? where : label || 'the pipeline';
          const unknown = `unknown key "${key}" in ${place}`;
          // The contract's waves on a matrix step are the pipeline's rollout: (docs: Deviations): told where they go.
          const stepPath = [...base, ...path];
          if (
            ROLLOUT_KEYS.includes(key) &&
            stepPath.length === 2 &&
            stepPath[0] === 'steps' &&
            typeof stepPath[1] === 'number'
          ) {
            const matrix = source.doc.getIn([...stepPath, 'matrix']);
            const over = isMap(matrix) && matrix.items.length === 1 ? String(matrix.items[0]!.key) : 'KEY';
            at(
              [...path, key],
              `${unknown}: waves are the pipeline's rollout:`,
              `write them at the top level: rollout: { over: ${over}, waves: [...], max-failures: ..., analysis: ... } (docs/pipeline-format.md, Rollouts in waves)`,
              true,
            );
            continue;
          }
          // A key of a mapping one level down (rollout's gates, which are analysis.gates) is told where it goes, not as a typo of a sibling.
          const home = known.find((child) => keysAt(schema, [...path, child]).includes(key));
          if (home) {
            at(
              [...path, key],
              `${unknown}: it is a key of ${pathLabel([...base, ...path, home])}`,
              `write it under ${home}: (${home}: { ${key}: … })`,
              true,
            );
            continue;
          }
          const guess = didYouMean(key, known);
          at(
            [...path, key],
            unknown,
            guess ? `did you mean "${guess}"?` : known.length ? `allowed keys: ${known.join(', ')}` : undefined,
            true,
          );
        }
        break;
      case 'invalid_type':
        if (issue.input === undefined) {
          const key = path[path.length - 1];
          at(
            path.slice(0, -1),
            `missing required key "${String(key)}"${inPlace(path.slice(0, -1))}`,
            missingHint(base, path),
            true,
          );
        } else {
          // A list given as one string ("1001 1002"): say how a list is written, at the value.
          const parent =
            path.length > 0 && typeof path[path.length - 1] === 'number'
              ? (source.doc.getIn([...base, ...path.slice(0, -1)]) as unknown)
              : undefined;
          if (typeof parent === 'string') {
            const name = String([...base, ...path].filter((p) => typeof p === 'string').at(-1));
            const items = parent
              .split(/[\s,;]+/)
              .filter(Boolean)
              .map((p) => (/^-?\d+$/.test(p) ? p : JSON.stringify(p)));
            at(
              path.slice(0, -1),
              `${name} is a list: write [${items.join(', ')}]`,
              `a list is written [a, b] or as lines starting with "- "; one string is read as a list only when its items are separated by commas`,
            );
            break;
          }
          const raw =
            typeof issue.input === 'number' && Number.isNaN(issue.input)
              ? source.doc.getIn([...base, ...path])
              : issue.input;
          at(path, `${label}: ${typeMismatch(issue.expected, raw)}`);
        }
        break;
      case 'invalid_value': {
        if (issue.input === undefined) {
          at(
            path.slice(0, -1),
            `missing required key "${String(path[path.length - 1])}"${inPlace(path.slice(0, -1))}`,
            missingHint(base, path),
            true,
          );
          break;
        }
        const isUses = path[path.length - 1] === 'uses' && typeof issue.input === 'string';
        if (isUses) {
          const guess = didYouMean(issue.input as string, STEP_NAMES);
          at(
            path,
            `unknown step type "${String(issue.input)}"`,
            guess ? `did you mean "${guess}"?` : `step types: ${STEP_NAMES.join(', ')}`,
          );
        } else {
          const values = issue.values.map((v) => JSON.stringify(v)).join(', ');
          const custom = issue.message.startsWith('Invalid') ? `must be one of ${values}` : issue.message;
          at(path, `${label}: ${custom}${issue.input === undefined ? '' : `, got ${typeName(issue.input)}`}`);
        }
        break;
      }
      case 'invalid_key': // a key the record's key schema refuses: its own message, at the key
        at(path, `${label}: ${issue.issues[0]?.message ?? issue.message}`, undefined, true);
        break;
      case 'invalid_union': {
        const branch =
          issue.errors.find((b) => !b.every((i) => i.code === 'invalid_type' && i.path.length === 0)) ??
          issue.errors[issue.errors.length - 1];
        if (branch && branch.length > 0 && !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0)) {
          out.push(
            ...issueDiagnostics(
              source,
              branch.map((i) => ({ ...i, path: [...path, ...i.path] })) as Issue[],
              base,
              schema,
              where,
            ),
          );
        } else {
          const expected = issue.errors
            .flatMap((b) => b.map((i) => (i.code === 'invalid_type' ? i.expected : undefined)))
            .filter(Boolean);
          at(path, `${label}: expected ${[...new Set(expected)].join(' or ')}, got ${typeName(issue.input)}`);
        }
        break;
      }
      default: {
        // An id that is not [a-z][a-z0-9_-]*: suggest one.
        const id =
          path[path.length - 1] === 'id' && typeof issue.input === 'string'
            ? issue.input
                .toLowerCase()
                .replace(/[^a-z0-9_-]+/g, '-')
                .replace(/^[^a-z]+/, '')
            : undefined;
        at(
          path,
          `${label ? `${label}: ` : ''}${issue.message}`,
          id ? `write id: ${id || 'step'} (lower case letters, digits, - and _; a letter first)` : undefined,
        );
      }
    }
  }
  return out;
}
