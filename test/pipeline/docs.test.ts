// docs/pipeline-format.md documents every step type with each of its inputs and outputs, and
// every step key: the docs cannot drift from the code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { keysAt } from '../../src/pipeline/issues.ts';
import { PipelineFileSchema, lenient, StepSchema } from '../../src/pipeline/schema.ts';
import { STEP_TYPES } from '../../src/steps/registry.ts';

const doc = readFileSync(new URL('../../docs/pipeline-format.md', import.meta.url), 'utf8');

test('every step type, input and output is in docs/pipeline-format.md', () => {
  for (const type of STEP_TYPES.values()) {
    const row = doc.split('\n').find((l) => l.startsWith(`| \`${type.uses}\``));
    assert.ok(row, `a row for ${type.uses}`);
    const inputs = keysAt(type.inputs(lenient), []);
    const documented = row.includes('as update/system') ? doc.split('\n').find((l) => l.startsWith('| `update/system`'))! + row : row;
    for (const input of inputs) assert.ok(documented.includes(`\`${input}\``), `${type.uses} input ${input}`);
    for (const output of type.outputs) assert.ok(documented.includes(`\`${output}\``), `${type.uses} output ${output}`);
  }
});

test('every top-level and step key is in docs/pipeline-format.md', () => {
  for (const key of [...keysAt(PipelineFileSchema, []), ...keysAt(StepSchema, [])]) {
    assert.ok(doc.includes(`| \`${key}\` |`), key);
  }
});
