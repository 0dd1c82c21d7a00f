// Every step type of pipeline-format.md section 2, by its `uses` name.
import apiRequest from './api-request.ts';
import assert from './assert.ts';
import classesGet from './classes-get.ts';
import classesQuery from './classes-query.ts';
import { classesCreate, classesDelete, classesUpdate } from './classes-write.ts';
import licensingAdd from './licensing-add.ts';
import licensingCheck from './licensing-check.ts';
import licensingCreate from './licensing-create.ts';
import licensingRemove from './licensing-remove.ts';
import monitoringAlerts from './monitoring-alerts.ts';
import monitoringEngines from './monitoring-engines.ts';
import monitoringSessions from './monitoring-sessions.ts';
import replicationCheck from './replication-check.ts';
import replicationSync from './replication-sync.ts';
import transactionLogClear from './transaction-log-clear.ts';
import type { z } from 'zod';
import type { StepType, Wrap } from './types.ts';
import updateSystem from './update-system.ts';
import updateVfs from './update-vfs.ts';

const ALL = [
  transactionLogClear,
  replicationSync,
  replicationCheck,
  updateSystem,
  updateVfs,
  monitoringEngines,
  monitoringAlerts,
  monitoringSessions,
  licensingCreate,
  licensingAdd,
  licensingRemove,
  licensingCheck,
  classesGet,
  classesQuery,
  classesCreate,
  classesUpdate,
  classesDelete,
  apiRequest,
  assert,
] as unknown as StepType[];

export const STEP_TYPES: ReadonlyMap<string, StepType> = new Map(ALL.map((s) => [s.uses, s]));
export const STEP_NAMES = ALL.map((s) => s.uses) as [string, ...string[]];

const schemas = new Map<Wrap, Map<string, z.ZodType>>();

/**
 * The inputs schema of a step type under a wrap, built once: building a zod object schema (and
 * its compiled parser) per step made validating 10,000 steps take seconds.
 */
export function inputSchema(step: StepType, wrap: Wrap): z.ZodType {
  let byType = schemas.get(wrap);
  if (!byType) schemas.set(wrap, (byType = new Map()));
  let schema = byType.get(step.uses);
  if (!schema) byType.set(step.uses, (schema = step.inputs(wrap) as z.ZodType));
  return schema;
}

/** The step makes only GET calls with these inputs (see StepType.readOnly). */
export function isReadOnly(step: StepType, inputs: Record<string, unknown>): boolean {
  return typeof step.readOnly === 'function' ? step.readOnly(inputs) : step.readOnly;
}
