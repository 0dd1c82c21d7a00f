// docs/pipeline-format.md documents every step type with each of its inputs and outputs, and
// every step key: the docs cannot drift from the code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatDiagnostic, type PipelineInvalid } from '../../src/pipeline/diagnostics.ts';
import { keysAt } from '../../src/pipeline/issues.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { PipelineFileSchema, lenient, StepSchema } from '../../src/pipeline/schema.ts';
import { STEP_TYPES } from '../../src/steps/registry.ts';

const doc = readFileSync(new URL('../../docs/pipeline-format.md', import.meta.url), 'utf8');

test('every step type, input and output is in docs/pipeline-format.md', () => {
  for (const type of STEP_TYPES.values()) {
    const row = doc.split('\n').find((l) => l.startsWith(`| \`${type.uses}\``));
    assert.ok(row, `a row for ${type.uses}`);
    const inputs = keysAt(type.inputs(lenient), []);
    const documented = row.includes('as update/system')
      ? doc.split('\n').find((l) => l.startsWith('| `update/system`'))! + row
      : row;
    for (const input of inputs) assert.ok(documented.includes(`\`${input}\``), `${type.uses} input ${input}`);
    for (const output of type.outputs) assert.ok(documented.includes(`\`${output}\``), `${type.uses} output ${output}`);
  }
});

test('every top-level and step key is in docs/pipeline-format.md', () => {
  for (const key of [...keysAt(PipelineFileSchema, []), ...keysAt(StepSchema, [])]) {
    assert.ok(doc.includes(`| \`${key}\` |`), key);
  }
});

test('every whole pipeline shown in docs/pipeline-format.md validates', () => {
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((b) => /^version: 1$/m.test(b) && /^steps:$/m.test(b));
  assert.ok(blocks.length >= 1, 'the page shows a whole pipeline');
  // Every environment variable an example reads is set, to a value of its own name.
  const env = new Proxy({ ENGINE_URL: 'https://erp.example.com' } as Record<string, string>, {
    get: (target, name: string) => target[name] ?? name,
  });
  for (const text of blocks) {
    try {
      // An example's include: reads the shipped inventory (pipelines/inventory/).
      loadPipeline({
        file: 'docs example',
        text,
        env,
        readInclude: (path) => readFileSync(new URL(`../../pipelines/${path}`, import.meta.url), 'utf8'),
      });
    } catch (error) {
      assert.fail(
        `an example of docs/pipeline-format.md does not validate:\n${text}\n${(error as PipelineInvalid).diagnostics?.map((d) => formatDiagnostic(d)).join('\n') ?? error}`,
      );
    }
  }
});
