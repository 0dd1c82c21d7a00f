// `include: [inventory/prod.yml, ...]`: inventory files (servers, targets, vars, windows, freezes) merged into the
// pipeline before it is checked. Each file is read through the loader's `readInclude` (the edge
// resolves it next to the pipeline); its problems are located in it; a name defined twice (in the
// pipeline and an inventory, or in two inventories) is an error naming both places, and so is an
// inventory included twice; a pipeline that includes itself, or another whole pipeline file, is
// told so at that include. An inventory that cannot be merged is counted, so the loader does not go
// on to list what follows from it.
import { dirname, join, normalize } from 'node:path';
import type { Diagnostic } from './diagnostics.ts';
import { issueDiagnostics } from './issues.ts';
import { InventorySchema, LOADER_PARSE, PipelineFileSchema } from './schema.ts';
import { locate, parseYaml, type YamlSource } from './yaml-doc.ts';

export const INVENTORY_KINDS = ['servers', 'targets', 'vars', 'windows', 'freezes'] as const;
export type InventoryKind = (typeof INVENTORY_KINDS)[number];

export interface Included {
  /** The pipeline's data with the inventories' servers, targets and vars merged in. */
  data: Record<string, unknown>;
  /** Where each included name is defined: `targets.prod` -> the inventory's source. */
  origins: Map<string, YamlSource>;
  problems: Diagnostic[];
  /** The inventories' text, by name, to show their lines under a finding. */
  texts: Record<string, string>;
  /** How many inventories could not be merged (unreadable, not YAML, not an inventory): what they define is unknown. */
  unread: number;
}

const WAITS = 'the checks that need what it defines (vars, servers, targets) wait until it is read';

/** The keys a pipeline file has and an inventory never does. */
const PIPELINE_ONLY: readonly string[] = Object.keys(PipelineFileSchema.shape).filter(
  (key) => !(INVENTORY_KINDS as readonly string[]).includes(key),
);

/**
 * A whole pipeline file's own keys (version, name, steps, ...), in its order, when an include names
 * one: it has steps, or a version and a name. Else undefined (an inventory's stray key is its own finding).
 */
function pipelineKeys(data: unknown): string[] | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  if (!keys.includes('steps') && !(keys.includes('version') && keys.includes('name'))) return undefined;
  return keys.filter((key) => PIPELINE_ONLY.includes(key));
}

/**
 * `fast`: read the inventories with the fast parser where it reads them as `yaml` would
 * (yaml-doc.ts); the loader reads everything again with `yaml` when it refuses anything, so
 * every refusal is `yaml`'s. Places are found only for what is said: locating every name of a
 * 10,000-server inventory as it is merged cost a positioned parse and a walk of its mapping per name.
 */
export function includeInventories(
  source: YamlSource,
  data: Record<string, unknown>,
  readInclude: ((path: string) => string) | undefined,
  fast = false,
): Included {
  const includes = data.include;
  const origins = new Map<string, YamlSource>();
  const problems: Diagnostic[] = [];
  const texts: Record<string, string> = {};
  if (!Array.isArray(includes) || includes.length === 0) return { data, origins, problems, texts, unread: 0 };
  let unread = 0;
  const merged: Record<InventoryKind, Record<string, unknown>> = {
    servers: {},
    targets: {},
    vars: {},
    windows: {},
    freezes: {},
  };
  /** Where each name was first defined: its file and path, located only when it is defined again. */
  const where = new Map<string, { src: YamlSource; path: string[] }>();
  const place = ({ src, path }: { src: YamlSource; path: string[] }) => {
    const p = locate(src, path, { key: true });
    return `${src.file}:${p.line}:${p.col}`;
  };
  const add = (kind: InventoryKind, entries: unknown, src: YamlSource) => {
    if (!entries || typeof entries !== 'object' || Array.isArray(entries)) return;
    for (const [name, value] of Object.entries(entries)) {
      const key = `${kind}.${name}`;
      const first = where.get(key);
      if (first) {
        const p = locate(src, [kind, name], { key: true });
        problems.push({
          file: src.file,
          line: p.line,
          col: p.col,
          message: `${kind.slice(0, -1)} "${name}" is defined twice: here and at ${place(first)}`,
          hint: 'a name is defined once, in the pipeline or in one inventory',
        });
        continue;
      }
      where.set(key, { src, path: [kind, name] });
      Object.defineProperty(merged[kind], name, { value, enumerable: true, writable: true, configurable: true });
      if (src !== source) origins.set(key, src);
    }
  };
  for (const kind of INVENTORY_KINDS) add(kind, data[kind], source);
  /** The include (its index) each inventory was first named by, by its name as findings give it. */
  const includedBy = new Map<string, number>();
  const includeAt = (i: number) => {
    const p = locate(source, ['include', i]);
    return `${source.file}:${p.line}:${p.col}`;
  };
  includes.forEach((path, index) => {
    if (typeof path !== 'string') return;
    // Located only when something is said about it.
    const at = () => locate(source, ['include', index]);
    // Named as the pipeline file is (from where the run was started: the workspace root in CI), so
    // a finding in it is annotated on the right file; `include:` itself is relative to the pipeline.
    const name = join(dirname(source.file), path);
    // Read as an inventory, its own version, include and steps would each be "unknown in the inventory".
    if (name === normalize(source.file)) {
      problems.push({
        file: source.file,
        ...at(),
        message: `include ${path}: that is this pipeline itself, not an inventory`,
        hint: `remove it from include:; an include names an inventory file (${INVENTORY_KINDS.join(', ')}) to merge into the pipeline`,
      });
      return;
    }
    // Merged once: read again, each of its names would be "defined twice", here and at itself.
    const first = includedBy.get(name);
    if (first !== undefined) {
      problems.push({
        file: source.file,
        ...at(),
        message: `include ${path}: ${name} is included twice, at ${includeAt(first)} and at ${includeAt(index)}`,
        hint: 'include each inventory once',
      });
      return;
    }
    includedBy.set(name, index);
    if (!readInclude) {
      problems.push({
        file: source.file,
        ...at(),
        message: `include ${path}: inventories are read next to a pipeline file`,
        hint: 'run the pipeline from its file',
      });
      unread += 1;
      return;
    }
    let text: string;
    try {
      text = readInclude(path);
    } catch (error) {
      // A refusal (outside the repository, not a regular file, too big, not UTF-8) says why and what to do.
      const refused = error as Error & { hint?: string; code?: string };
      const why =
        typeof refused.hint === 'string'
          ? refused.message
          : refused.code === 'ENOENT'
            ? 'no such file'
            : (refused.code ?? refused.message);
      problems.push({
        file: source.file,
        ...at(),
        message: `include ${path}: cannot read it (${why})`,
        hint: `${refused.hint ?? 'paths are relative to the pipeline file'}; ${WAITS}`,
      });
      unread += 1;
      return;
    }
    texts[name] = text;
    const parsed = parseYaml(name, text, { fast });
    if (parsed.diagnostics.length > 0) {
      problems.push(...parsed.diagnostics);
      unread += 1;
      return;
    }
    const checked = InventorySchema.safeParse(parsed.data ?? {}, LOADER_PARSE);
    if (!checked.success) {
      // Another pipeline: one finding at the include, not one "unknown key" per key of that file.
      const own = pipelineKeys(parsed.data);
      if (own) {
        problems.push({
          file: source.file,
          ...at(),
          message: `include ${path}: ${name} is a whole pipeline (${own.join(', ')}), not an inventory that can be included`,
          hint: `include: names inventory files (${INVENTORY_KINDS.join(', ')}) merged into this pipeline: move what the two pipelines share into an inventory both include, and run ${path} as a pipeline of its own; what it defines is not merged, so the checks that need it wait`,
        });
        unread += 1;
        return;
      }
      problems.push(...issueDiagnostics(parsed.source, checked.error.issues, [], InventorySchema, 'the inventory'));
      unread += 1;
      return;
    }
    // An empty file (or comments only) is an inventory of nothing yet.
    const inventory = (parsed.data ?? {}) as Record<string, unknown>;
    for (const kind of INVENTORY_KINDS) add(kind, inventory[kind], parsed.source);
  });
  const out: Record<string, unknown> = { ...data };
  for (const kind of INVENTORY_KINDS) if (Object.keys(merged[kind]).length > 0) out[kind] = merged[kind];
  return { data: out, origins, problems, texts, unread };
}
