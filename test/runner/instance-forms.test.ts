// A step instance has one schema (runner/instance.ts): the journal's end record is it, the
// report's step is it without the key, and what a carried instance takes is every field but its
// identity and its place in a rollout. A field added to the schema is in all of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JournalRecordSchema } from '../../src/journal/records.ts';
import { CARRIED_FIELDS, InstanceIdentity, newInstance, StepInstance } from '../../src/runner/instance.ts';
import { ReportStep, reportStep } from '../../src/report/model.ts';

const fields = Object.keys(StepInstance.shape);

test("the report's step has every field of the instance but its key, in the instance's order", () => {
  assert.deepEqual(
    Object.keys(ReportStep.shape),
    fields.filter((k) => k !== 'key'),
  );
  const step = reportStep(newInstance({ key: 'id:a', step: 0, name: 'A', uses: 'gate' }));
  assert.deepEqual(Object.keys(step), Object.keys(ReportStep.shape));
  assert.equal(step.id, null);
  assert.equal(step.startedAt, null);
});

test("the journal's end record keeps the instance as its schema says, and its run record the instance's identity", () => {
  const shapeOf = (t: string) =>
    JournalRecordSchema.options.find((o) => o.shape.t.value === t)!.shape as Record<string, unknown>;
  assert.equal(shapeOf('end').run, StepInstance);
  assert.equal((shapeOf('run').instances as { element: unknown }).element, InstanceIdentity);
});

test('a carried instance takes every field but its identity and its wave and round', () => {
  assert.deepEqual(
    [...CARRIED_FIELDS].sort(),
    fields.filter((k) => !(k in InstanceIdentity.shape) && k !== 'wave' && k !== 'round').sort(),
  );
  assert.ok(CARRIED_FIELDS.includes('outputs') && CARRIED_FIELDS.includes('decision'));
});
