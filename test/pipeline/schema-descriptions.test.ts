// Editors show a property's description on hover and in completion: every property of the
// pipeline, inventory and report schemas `enginectl schema` prints has one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

/** The properties without a description, by JSON path, anywhere in a JSON Schema. */
function undescribed(schema: unknown): { total: number; missing: string[] } {
  const missing: string[] = [];
  let total = 0;
  const seen = new Set<unknown>();
  const walk = (node: unknown, path: string): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const properties = (node as { properties?: Record<string, { description?: string; $ref?: string }> }).properties;
    if (properties && typeof properties === 'object') {
      for (const [key, value] of Object.entries(properties)) {
        total += 1;
        if (!value?.description && !value?.$ref) missing.push(`${path}.${key}`);
        walk(value, `${path}.${key}`);
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'properties') walk(value, `${path}/${key}`);
  };
  walk(schema, '');
  return { total, missing };
}

for (const [flag, name] of [
  [[], 'pipeline'],
  [['--inventory'], 'inventory'],
  [['--report'], 'report'],
] as const) {
  test(`every property of the ${name} schema has a description`, async () => {
    const r = await runCli(['schema', ...flag]);
    assert.equal(r.code, 0, r.stderr);
    const { total, missing } = undescribed(JSON.parse(r.stdout));
    assert.ok(total > 10, `${total} properties`);
    assert.deepEqual(missing, [], `${missing.length} of ${total} properties have no description`);
  });
}
