// An input is taken as the schema editors are given says (schema/pipeline.schema.json): a number
// as a number or its digits, a text as a text, a number or a boolean, a list as a list or one
// string of values. `validate` and the schema agree on each value below, and a value neither
// takes (an empty key, a list of one where one value goes, a hexadecimal number) is refused by
// validate at its line: it never reaches a run as 0, 1 or "null".
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { pipelineJsonSchema } from '../../src/pipeline/json-schema.ts';

const HEAD = `version: 1
vars: { r: "26.11.0" }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
`;

/** A step's inputs (YAML flow or block text under `with:`), as one pipeline file. */
const file = (uses: string, withText: string) =>
  `${HEAD}  - uses: ${uses}\n    with:\n${withText.replace(/^/gm, '      ')}\n`;

const REFUSED: [string, string, string][] = [
  ['licensing/remove', 'key: ""', 'key'],
  ['licensing/remove', 'key: " "', 'key'],
  ['licensing/remove', 'key: "0x3E9"', 'key'],
  ['licensing/remove', 'key: [7]', 'key'],
  ['licensing/remove', 'key: true', 'key'],
  ['update/vfs', 'target: prod\nfiles: [null]', 'files'],
  ['update/vfs', 'target: prod\nfiles: [true]', 'files'],
  ['update/vfs', 'target: prod\nfiles: ["1e3"]', 'files'],
  ['update/vfs', 'target: prod\nfiles: [[1001]]', 'files'],
  ['monitoring/sessions', 'max-active:', 'max-active'],
  ['monitoring/engines', 'min-online: [3]', 'min-online'],
  ['monitoring/engines', 'version: [a]', 'version'],
  ['monitoring/engines', 'version:', 'version'],
  ['replication/sync', 'config: true', 'config'],
  ['classes/create', 'class: ""\nfields: { iname: X }', 'class'],
  [
    'licensing/create',
    'licensee-id:\nlicensee-name: ACME\nexpiration: 2027-01-31\nlicenses: [{ product: 1, quantity: 5, type: connection }]',
    'licensee-id',
  ],
];

const ACCEPTED: [string, string][] = [
  ['licensing/remove', 'key: 7'],
  ['licensing/remove', 'key: " 7 "'],
  ['update/vfs', 'target: prod\nfiles: "1001, 1002"'],
  ['update/vfs', 'target: prod\nfiles: ["1001", 1002]'],
  ['update/vfs', 'target: prod\nfiles: [1001, "${{ 1 }}"]'],
  ['monitoring/sessions', 'max-active: "0"'],
  ['monitoring/engines', 'min-online: 3\nversion: 26.11'],
  ['monitoring/engines', 'version: "${{ vars.r }}"'],
  ['classes/create', 'class: "30"\nfields: { iname: X }'],
  [
    'licensing/create',
    'licensee-id: 42\nlicensee-name: ACME\nexpiration: 2027-01-31\nlicenses: [{ product: "1", quantity: 5, type: connection }]',
  ],
];

async function validate(text: string): Promise<{ code: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-as-written-'));
  writeFileSync(join(dir, 'p.yml'), text);
  const cli = await runCli(['validate', join(dir, 'p.yml'), '--emulator']);
  return { code: cli.code, out: cli.stdout + cli.stderr };
}

async function editorSchema(): Promise<(doc: unknown) => boolean> {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const addFormats = (await import('ajv-formats')).default;
  const ajv = new Ajv2020({ allowUnionTypes: true });
  addFormats.default(ajv);
  return ajv.compile(pipelineJsonSchema()) as (doc: unknown) => boolean;
}

test('validate refuses at its line an input value the editor schema refuses: no empty key, list of one, boolean or hexadecimal read as a number or a text', async () => {
  const schema = await editorSchema();
  for (const [uses, inputs, key] of REFUSED) {
    const text = file(uses, inputs);
    const { code, out } = await validate(text);
    assert.equal(code, 2, `${uses} ${inputs}: validate must refuse it\n${out}`);
    assert.match(out, new RegExp(`steps\\[0\\]\\.with\\.${key}`), `${uses} ${inputs}: the input is named\n${out}`);
    assert.equal(schema(parseYaml(text)), false, `${uses} ${inputs}: the editor schema refuses it too`);
  }
});

test('validate and the editor schema both take an input as its type, its digits, a string of values or an expression', async () => {
  const schema = await editorSchema();
  for (const [uses, inputs] of ACCEPTED) {
    const text = file(uses, inputs);
    const { code, out } = await validate(text);
    assert.equal(code, 0, `${uses} ${inputs}: validate takes it\n${out}`);
    assert.equal(schema(parseYaml(text)), true, `${uses} ${inputs}: the editor schema takes it too`);
  }
});

test('a list holding an expression, where one value goes, is refused by validate as the editor schema refuses it, not by the run once the steps before it wrote', async () => {
  const schema = await editorSchema();
  for (const [uses, inputs, key] of [
    ['update/system', 'target: prod\ntracking-id: ["R-${{ vars.r }}"]', 'tracking-id'],
    ['update/system', 'target: prod\nmessage: ["${{ vars.r }}", b]', 'message'],
    ['update/system', 'target: ["${{ vars.r }}"]', 'target'],
    ['licensing/remove', 'key: ["${{ vars.r }}"]', 'key'],
  ]) {
    const text = file(uses!, inputs!);
    const { code, out } = await validate(text);
    assert.equal(code, 2, `${uses} ${inputs}: validate must refuse it\n${out}`);
    assert.match(out, new RegExp(`steps\\[0\\]\\.with\\.${key}: expected a (string|number), got a list`), out);
    assert.equal(schema(parseYaml(text)), false, `${uses} ${inputs}: the editor schema refuses it too`);
  }
  // A list input, or a mapping's values, may hold an expression: checked once resolved.
  for (const [uses, inputs] of [
    ['update/vfs', 'target: prod\nfiles: ["${{ vars.r }}", 1001]'],
    ['classes/create', 'class: 30\nfields: { iname: "${{ vars.r }}" }'],
    [
      'licensing/create',
      'licensee-id: "${{ vars.r }}"\nlicensee-name: ACME\nexpiration: 2027-01-31\nlicenses: [{ product: "${{ 1 }}", quantity: 5, type: connection }]',
    ],
  ]) {
    const text = file(uses!, inputs!);
    const { code, out } = await validate(text);
    assert.equal(code, 0, `${uses} ${inputs}: validate takes it\n${out}`);
    assert.equal(schema(parseYaml(text)), true, `${uses} ${inputs}: the editor schema takes it too`);
  }
});

test('in a list holding an expression, the items written as values are checked now, each at its index, as the editor schema checks them', async () => {
  const schema = await editorSchema();
  for (const [uses, inputs, where] of [
    [
      'licensing/create',
      'licensee-id: A\nlicensee-name: ACME\nexpiration: 2027-01-31\nlicenses: [{ product: "${{ vars.r }}", type: U }]',
      'missing required key "quantity"',
    ],
    [
      'licensing/create',
      'licensee-id: A\nlicensee-name: ACME\nexpiration: 2027-01-31\nlicenses: [{ product: "${{ vars.r }}", quantity: -1, type: U }]',
      'licenses\\[0\\]\\.quantity',
    ],
    ['update/vfs', 'target: prod\nfiles: ["${{ vars.r }}", 1001, abc]', 'files\\[2\\]'],
  ]) {
    const text = file(uses!, inputs!);
    const { code, out } = await validate(text);
    assert.equal(code, 2, `${uses} ${inputs}: validate must refuse it\n${out}`);
    assert.match(out, new RegExp(where!.startsWith('missing') ? where! : `steps\\[0\\]\\.with\\.${where}`), out);
    assert.equal(schema(parseYaml(text)), false, `${uses} ${inputs}: the editor schema refuses it too`);
  }
});

test('a duration that is none (10 minutes, an empty one) is refused by the editor schema as validate refuses it, wherever a duration goes', async () => {
  const schema = await editorSchema();
  for (const text of [
    `${HEAD}  - uses: transaction-log/clear\n    timeout: 10 minutes\n`,
    `${HEAD}  - uses: transaction-log/clear\n    retry: { attempts: 2, delay: "" }\n`,
    `${HEAD}  - uses: monitoring/engines\n    with: { wait: { timeout: 1 hour } }\n`,
    `version: 1\ndefaults: { timeout: soon }\nsteps:\n  - uses: transaction-log/clear\n`,
  ]) {
    const { code, out } = await validate(text);
    assert.equal(code, 2, `${text}\n${out}`);
    assert.match(out, /must be a duration such as 90s, 30m, 2h or 1h30m/, out);
    assert.equal(schema(parseYaml(text)), false, `the editor schema refuses it too:\n${text}`);
  }
  for (const text of [
    `${HEAD}  - uses: transaction-log/clear\n    timeout: 1h30m\n`,
    `${HEAD}  - uses: monitoring/engines\n    with: { wait: { timeout: " 10m ", interval: 2m } }\n`,
  ]) {
    const { code, out } = await validate(text);
    assert.equal(code, 0, `${text}\n${out}`);
    assert.equal(schema(parseYaml(text)), true, `the editor schema takes it too:\n${text}`);
  }
});

test('a fraction where a whole number goes is told in words: expected a whole number, got the number 1.5', async () => {
  const { code, out } = await validate(file('update/vfs', 'target: prod\nfiles: [1.5]'));
  assert.equal(code, 2, out);
  assert.match(out, /steps\[0\]\.with\.files\[0\]: expected a whole number, got the number 1\.5/, out);
});
