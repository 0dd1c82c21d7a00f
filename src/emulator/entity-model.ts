// The class model of the emulator: hierarchy (MAE), inherited fields, tables, and the checks a
// write must pass. Pure functions over the state.
import { badRequest, notFound, type ProblemDetail } from './http.ts';
import type { ClassDef, EmulatorState, FieldDef, StoredEntity } from './state.ts';

export function findClass(state: EmulatorState, key: number): ClassDef {
  const found = state.classes.find((c) => c.key === key);
  if (!found) throw notFound(`class ${key} does not exist`);
  return found;
}

export function children(state: EmulatorState, key: number): number[] {
  return state.classes.filter((c) => c.MAE === key).map((c) => c.key);
}

/** Children, grandchildren and so on, breadth first; the class itself is not included. */
export function descendants(state: EmulatorState, key: number): number[] {
  const out: number[] = [];
  const queue = children(state, key);
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (out.includes(next)) continue;
    out.push(next);
    queue.push(...children(state, next));
  }
  return out;
}

/** Root first. */
function lineage(state: EmulatorState, cls: ClassDef): ClassDef[] {
  const chain: ClassDef[] = [cls];
  let current = cls;
  while (current.MAE !== null && chain.length < 64) {
    const parent = state.classes.find((c) => c.key === current.MAE);
    if (!parent) break;
    chain.unshift(parent);
    current = parent;
  }
  return chain;
}

/** Every field of the class, its own and inherited. */
export function fieldsOf(state: EmulatorState, cls: ClassDef): Record<string, FieldDef> {
  return Object.assign({}, ...lineage(state, cls).map((c) => c.properties)) as Record<string, FieldDef>;
}

export function requiredOf(state: EmulatorState, cls: ClassDef): string[] {
  return [...new Set(lineage(state, cls).flatMap((c) => c.required))];
}

/** The class's data schema (enterprise-api.md 2.2). */
export function classSchema(state: EmulatorState, cls: ClassDef) {
  return { title: cls.name, type: 'object', required: requiredOf(state, cls), properties: fieldsOf(state, cls) };
}

/** Throws the "no table" error of a class that only groups definitions. */
export function requireTable(state: EmulatorState, cls: ClassDef): string {
  if (cls.table !== null) return cls.table;
  const withTable = descendants(state, cls.key).filter((k) => state.classes.find((c) => c.key === k)?.table);
  const hint = withTable.length > 0 ? ` Use one of its descendant classes that do: ${withTable.join(', ')}.` : '';
  throw badRequest(`class ${cls.key} (${cls.name}) defines no table, so it has no entities.${hint}`);
}

export function isLogClass(state: EmulatorState, key: number): boolean {
  return key === state.iLogClass;
}

/** All entities the Classes API reaches: the data and the transaction log. */
export function allEntities(state: EmulatorState): StoredEntity[] {
  return state.entities.concat(state.iLog);
}

/** An entity by key (an integer) or identifier (its iname), optionally within classes. */
export function findEntity(state: EmulatorState, id: string, within?: number[]): StoredEntity {
  const pool = allEntities(state).filter((e) => within === undefined || within.includes(e.iclass));
  const where = within === undefined ? '' : ` in class ${within[0]} or its descendants`;
  if (/^-?\d+$/.test(id)) {
    const byKey = pool.find((e) => e.ikey === Number(id));
    if (byKey) return byKey;
    throw notFound(`entity ${id} does not exist${where}`);
  }
  const byName = pool.filter((e) => e.iname === id);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) throw badRequest(`identifier "${id}" names ${byName.length} entities${where}; use the key`);
  throw notFound(`entity "${id}" does not exist${where}`);
}

function typeProblem(def: FieldDef, value: unknown): string | undefined {
  if (value === null) return undefined;
  const is: Record<string, (v: unknown) => boolean> = {
    // One a JSON parser carries exactly: beyond 2^53 two integers read as one (body-check.ts `integer`).
    integer: (v) => Number.isSafeInteger(v),
    number: (v) => typeof v === 'number' && Number.isFinite(v),
    string: (v) => typeof v === 'string',
    boolean: (v) => typeof v === 'boolean',
    object: (v) => typeof v === 'object' && !Array.isArray(v),
    array: (v) => Array.isArray(v),
  };
  if (def.type && !is[def.type]!(value))
    return def.type === 'integer' && Number.isInteger(value)
      ? `must be an integer within ±${Number.MAX_SAFE_INTEGER} (a larger one reads as another)`
      : `must be ${def.type === 'integer' ? 'an integer' : `of type ${def.type}`}`;
  if (
    def.type === 'array' &&
    def.items?.type &&
    is[def.items.type] &&
    !(value as unknown[]).every(is[def.items.type]!)
  ) {
    return `must be an array of ${def.items.type}${def.items.type === 'integer' ? ` (each within ±${Number.MAX_SAFE_INTEGER})` : ''}`;
  }
  if (def.enum && !def.enum.includes(value))
    return `must be one of ${def.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (def.format === 'date' && (typeof value !== 'string' || !isIsoDate(value))) return 'must be a date YYYY-MM-DD';
  return undefined;
}

export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

/** Problems of `fields` written to an entity of `cls`: unknown fields, wrong types. */
export function fieldProblems(state: EmulatorState, cls: ClassDef, fields: Record<string, unknown>): ProblemDetail[] {
  const defs = fieldsOf(state, cls);
  const problems: ProblemDetail[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (!def) {
      problems.push({ field: name, message: `class ${cls.key} (${cls.name}) has no field ${name}` });
      continue;
    }
    const problem = typeProblem(def, value);
    if (problem) problems.push({ field: name, message: `${name} ${problem}` });
  }
  return problems;
}

/**
 * A written iversion (api 2.1: an integer, the record's version): the server keeps the version (1
 * at create, one more at each update), so an integer written is not stored; another type is refused.
 */
export function versionProblems(fields: Record<string, unknown>): ProblemDetail[] {
  const v = fields.iversion;
  if (v === undefined || v === null || Number.isSafeInteger(v)) return [];
  return [
    {
      field: 'iversion',
      message: `iversion must be an integer (the record's version, which the server sets: leave it out), got ${JSON.stringify(v)}`,
    },
  ];
}

/** The entity with every field of its class present, unset ones null. */
export function withAllFields(state: EmulatorState, cls: ClassDef, entity: StoredEntity): StoredEntity {
  const full: Record<string, unknown> = {};
  for (const name of Object.keys(fieldsOf(state, cls))) full[name] = null;
  return Object.assign(full, entity) as StoredEntity;
}
