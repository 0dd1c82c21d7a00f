// The editor's schema (schema/pipeline.schema.json) and `validate` held against each other on the
// inputs of every step of the example pipelines, each changed one way at a time: a value taken
// away or set to nothing, a list of one where a value goes, a number as text and back, a
// fraction, a negative or a huge number, an unknown key beside it, an expression in its place (a
// value or a list's item: `${{ vars.x }}`, the var holding what was there), an empty text or list,
// the text in lower case. The targets the pipelines define, and each step's `if`, are changed the
// same ways. For each, either both take the file or both refuse it: an editor that shows no
// problem where validate refuses one (or the other way round) is a mistake of one of them.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { pipelineJsonSchema } from '../../src/pipeline/json-schema.ts';

type Path = (string | number)[];
type Change = (
  parent: Record<string | number, unknown>,
  key: string | number,
  doc: Record<string | number, unknown>,
) => boolean;

const CHANGES: [string, Change][] = [
  [
    'taken away',
    (o, k) => {
      if (Array.isArray(o)) o.splice(Number(k), 1);
      else delete o[k];
      return true;
    },
  ],
  ['set to nothing', (o, k) => ((o[k] = null), true)],
  ['a list of one', (o, k) => typeof o[k] !== 'object' && ((o[k] = [o[k]]), true)],
  ['a number as text', (o, k) => typeof o[k] === 'number' && ((o[k] = String(o[k])), true)],
  ['digits as a number', (o, k) => typeof o[k] === 'string' && /^\d+$/.test(o[k]) && ((o[k] = Number(o[k])), true)],
  ['a boolean as text', (o, k) => typeof o[k] === 'boolean' && ((o[k] = String(o[k])), true)],
  ['a fraction', (o, k) => typeof o[k] === 'number' && ((o[k] = 1.5), true)],
  ['negative', (o, k) => typeof o[k] === 'number' && ((o[k] = -1), true)],
  ['huge', (o, k) => typeof o[k] === 'number' && ((o[k] = 1e12), true)],
  ['an unknown key beside it', (o) => !Array.isArray(o) && ((o['zz-unknown'] = 1), true)],
  [
    'an expression',
    (o, k, doc) => {
      if (o[k] === null || (typeof o[k] === 'string' && o[k].includes('${{'))) return false;
      // The var holds what was there: only what a var may read (the vars above it), not steps or matrix.
      const reads = JSON.stringify(o[k]).match(/\$\{\{.*?\}\}/g) ?? [];
      if (reads.some((e) => !/^\$\{\{\s*vars\.[\w-]+\s*\}\}$/.test(e))) return false;
      doc.vars = { ...(doc.vars as object | undefined), x: o[k] };
      o[k] = '${{ vars.x }}';
      return true;
    },
  ],
  ['an empty text', (o, k) => o[k] !== '' && (typeof o[k] === 'string' || Array.isArray(o[k])) && ((o[k] = ''), true)],
  ['an empty list', (o, k) => Array.isArray(o[k]) && o[k].length > 0 && ((o[k] = []), true)],
  [
    'in lower case',
    (o, k) => typeof o[k] === 'string' && o[k] !== o[k].toLowerCase() && ((o[k] = o[k].toLowerCase()), true),
  ],
];

/** Every path under `value` (at `path`) deeper than `depth`. */
function inputPaths(value: unknown, path: Path, into: Path[], depth = 3): Path[] {
  if (path.length > depth) into.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => inputPaths(v, [...path, i], into, depth));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) inputPaths(v, [...path, k], into, depth);
  return into;
}

test('on every input of the example pipelines, changed one way at a time, the editor schema and validate agree', async () => {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const addFormats = (await import('ajv-formats')).default;
  const ajv = new Ajv2020({ allowUnionTypes: true });
  addFormats.default(ajv);
  const schema = ajv.compile(pipelineJsonSchema());
  // The pipelines with the inventory they include, in a directory of the test's own.
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-schema-agrees-'));
  cpSync('pipelines', dir, { recursive: true });
  const disagreements: string[] = [];
  let cases = 0;
  for (const name of readdirSync('pipelines').filter((f) => f.endsWith('.yml'))) {
    const base = parseYaml(readFileSync(join('pipelines', name), 'utf8')) as { steps: unknown[]; targets?: unknown };
    const paths = [
      ...base.steps.flatMap((step, i) => inputPaths((step as { with?: unknown }).with, ['steps', i, 'with'], [])),
      // Each key of each target.
      ...inputPaths(base.targets, ['targets'], [], 2),
      // Each step's condition.
      ...base.steps.flatMap((step, i) => ((step as { if?: unknown }).if === undefined ? [] : [['steps', i, 'if']])),
    ];
    for (const path of paths)
      for (const [how, change] of CHANGES) {
        const doc = structuredClone(base) as unknown as Record<string | number, unknown>;
        let parent = doc;
        for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
        if (!change(parent, path.at(-1)!, doc)) continue;
        cases++;
        const file = join(dir, 'changed.yml');
        writeFileSync(file, stringifyYaml(doc));
        const cli = await runCli(['validate', file, '--emulator']);
        const editor = schema(doc);
        if ((cli.code === 0) !== editor)
          disagreements.push(
            `${name} ${path.join('.')} ${how}: the editor schema ${editor ? 'takes' : 'refuses'} it, validate ${cli.code === 0 ? 'takes it' : `refuses it: ${cli.stderr.split('\n')[0]}`}`,
          );
      }
  }
  assert.ok(cases > 300, `${cases} changed files`);
  assert.deepEqual(disagreements, []);
});

test('the editor schema and validate agree on forms the example pipelines do not hold', async () => {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const addFormats = (await import('ajv-formats')).default;
  const ajv = new Ajv2020({ allowUnionTypes: true });
  addFormats.default(ajv);
  const schema = ajv.compile(pipelineJsonSchema());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-schema-forms-'));
  const file = join(dir, 'form.yml');
  const head = [
    'version: 1',
    'vars: { x: 1 }',
    'targets: { prod: { server: p, database: PROD, token: t } }',
    'steps:',
    '',
  ].join('\n');
  const license = 'licensee-id: a, licensee-name: b, expiration: "2027-12-31"';
  const forms: [string, string][] = [
    [
      'an inline target without its password',
      'uses: update/system\n    with: { target: { server: p, database: D, username: u } }',
    ],
    [
      'an inline target with a token and a username',
      'uses: update/system\n    with: { target: { server: p, database: D, token: t, username: u } }',
    ],
    ['files of separators only', 'uses: update/vfs\n    with: { target: prod, files: " , ;" }'],
    [
      'files empty beside directories',
      'uses: update/vfs\n    with: { target: prod, files: "", directories: [/reports] }',
    ],
    ['that: of spaces', 'uses: assert\n    with: { that: "   " }'],
    ['that: an empty ${{ }}', 'uses: assert\n    with: { that: "${{ }}" }'],
    ['that: nothing', 'uses: assert\n    with: { that: }'],
    [
      'a license type by its code',
      `uses: licensing/create\n    with: { ${license}, licenses: [{ product: 1, quantity: 1, type: S }] }`,
    ],
    [
      'a license type no name',
      `uses: licensing/create\n    with: { ${license}, licenses: [{ product: 1, quantity: 1, type: user }] }`,
    ],
    [
      'an extension written as an expression',
      `uses: licensing/create\n    with: { ${license}, licenses: [{ product: 1, quantity: 1, type: U, extensions: [1, "\${{ vars.x }}"] }] }`,
    ],
  ];
  const disagreements: string[] = [];
  for (const [what, step] of forms) {
    const text = `${head}  - ${step}\n`;
    writeFileSync(file, text);
    const cli = await runCli(['validate', file]);
    const editor = schema(parseYaml(text));
    if ((cli.code === 0) !== editor)
      disagreements.push(
        `${what}: the editor schema ${editor ? 'takes' : 'refuses'} it, validate ${cli.code === 0 ? 'takes it' : `refuses it: ${cli.stderr.split('\n')[0]}`}`,
      );
  }
  assert.deepEqual(disagreements, []);
});
