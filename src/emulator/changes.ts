// Every entity write goes through here: it bumps the data version, journals the change for
// replication and writes the previous and new values to iLog.
import type { RouteContext } from './context.ts';
import type { StoredEntity } from './state.ts';

export type ChangeOp = 'insert' | 'update' | 'delete';

function changed(
  before: StoredEntity | null,
  after: StoredEntity | null,
): [Record<string, unknown> | null, Record<string, unknown> | null] {
  if (!before || !after) return [before ? { ...before } : null, after ? { ...after } : null];
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      oldValues[key] = before[key] ?? null;
      newValues[key] = after[key] ?? null;
    }
  }
  return [oldValues, newValues];
}

export function recordChange(
  ctx: RouteContext,
  op: ChangeOp,
  before: StoredEntity | null,
  after: StoredEntity | null,
): number {
  const { state } = ctx;
  const entity = (after ?? before)!;
  state.dataVersion += 1;
  state.journal.push({ version: state.dataVersion, ikey: entity.ikey, op });
  const [oldValues, newValues] = changed(before, after);
  const key = state.nextLocalKey;
  state.nextLocalKey -= 1;
  state.iLog.push({
    iclass: state.iLogClass,
    ikey: key,
    iversion: 1,
    iname: `${op} ${entity.ikey}`,
    ientity: entity.ikey,
    ientityclass: entity.iclass,
    ioperation: op,
    ioldvalues: oldValues,
    inewvalues: newValues,
    iuser: ctx.user.name,
    itimestamp: ctx.now(),
  });
  return state.dataVersion;
}
