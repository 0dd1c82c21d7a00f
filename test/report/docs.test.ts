// docs/report-format.md documents every field of the JSON report, and the examples it points to
// exist.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Report, ReportStep } from '../../src/report/model.ts';

const doc = readFileSync(new URL('../../docs/report-format.md', import.meta.url), 'utf8');

test('every field of the JSON report and of its steps is documented, and nothing else is', () => {
  const tables = doc.split('\nEach entry of `steps`:\n');
  assert.equal(tables.length, 2);
  const fieldsIn = (text: string) => [...text.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]!);
  const top = fieldsIn(tables[0]!.slice(tables[0]!.indexOf('## JSON report')));
  const step = fieldsIn(tables[1]!.slice(0, tables[1]!.indexOf('## JUnit')));
  assert.deepEqual(top, Object.keys(Report.shape));
  assert.deepEqual(step, Object.keys(ReportStep.shape));
});

test('the golden examples the doc names exist', () => {
  for (const name of ['success', 'replication-partial-failure', 'cancelled']) {
    assert.ok(doc.includes(`\`${name}\``));
    for (const ext of ['md', 'json', 'junit.xml'])
      assert.ok(existsSync(new URL(`../fixtures/golden/${name}.${ext}`, import.meta.url)), `${name}.${ext}`);
  }
});
