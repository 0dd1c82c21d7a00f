// Generators of hostile input for the property tests: expressions from the grammar's own tokens,
// pipeline documents shaped like real ones (known keys, step types and inputs, mixed with junk),
// and the committed pipelines mutated byte by byte.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { STEP_NAMES, STEP_TYPES } from '../../src/steps/registry.ts';
import { resolved } from '../../src/steps/types.ts';

const EXPR_TOKENS = [
  'success()',
  'failure()',
  'always()',
  'cancelled()',
  'contains(',
  'startsWith(',
  'endsWith(',
  'format(',
  'join(',
  'toJSON(',
  'fromJSON(',
  '(',
  ')',
  ',',
  '.',
  '[',
  ']',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '&&',
  '||',
  '!',
  'null',
  'true',
  'false',
  '0',
  '1',
  '-1.5e3',
  '1e999',
  "'x'",
  "'it''s'",
  "'{0}-{1}'",
  "'",
  'vars',
  'vars.files',
  'vars.__proto__',
  'env.HOME',
  'env',
  'secrets.TOKEN',
  'steps',
  'steps.a.outputs.x',
  'steps.a.outcome',
  'matrix.target',
  'targets.prod.database',
  'pipeline.name',
  'constructor',
  '__proto__',
  'toString',
  '*',
  '"',
  '${{',
  '}}',
  ' ',
];

/** An expression body: tokens of the grammar in any order, or any text. */
export const expressionBody = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...EXPR_TOKENS), { maxLength: 12 }).map((t) => t.join(' ')) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...EXPR_TOKENS), { maxLength: 12 }).map((t) => t.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);

/** A string value that may hold expressions. */
export const templated = fc.oneof(
  fc.string({ maxLength: 12 }),
  expressionBody.map((e) => `\${{ ${e} }}`),
  fc
    .tuple(fc.string({ maxLength: 6 }), expressionBody, fc.string({ maxLength: 6 }))
    .map(([a, e, b]) => `${a}\${{ ${e} }}${b}`),
);

const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'with',
  'uses',
  'id',
  'name',
  'if',
  'target',
  'files',
  'matrix',
  'steps',
  'token',
  'password',
  '',
];
const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 10 }));

const scalar = fc.oneof(
  fc.string({ maxLength: 16 }),
  templated,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

/** Any value of a small depth: scalars, lists, maps with odd keys. */
export const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'xsmall', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(key, tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** The input names of each step type, from its schema. */
function inputNames(uses: string): string[] {
  const schema = STEP_TYPES.get(uses)?.inputs(resolved) as unknown as { shape?: Record<string, unknown> } | undefined;
  return Object.keys(schema?.shape ?? {});
}

const stepOf = (uses: string) =>
  fc.record(
    {
      uses: fc.constant(uses),
      id: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/), fc.constantFrom('a', 'b', '1x', '__proto__')),
      name: templated,
      with: fc.dictionary(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...inputNames(uses), 'target') },
          { weight: 1, arbitrary: key },
        ),
        fc.oneof(scalar, value),
        { maxKeys: 5 },
      ),
      if: fc.oneof(expressionBody, templated, fc.boolean()),
      matrix: fc.dictionary(
        fc.constantFrom('target', 'x', '__proto__'),
        fc.array(fc.oneof(fc.constantFrom('prod', 'staging'), fc.integer({ min: 0, max: 3 })), { maxLength: 3 }),
        { maxKeys: 2 },
      ),
      'max-parallel': fc.oneof(fc.integer({ min: -1, max: 4 }), fc.string({ maxLength: 3 })),
      'continue-on-error': fc.oneof(fc.boolean(), templated),
      timeout: fc.constantFrom('1s', '30m', '1h30m', '0s', 'soon', 5),
      retry: fc.record(
        { attempts: fc.integer({ min: 0, max: 3 }), delay: fc.constantFrom('1s', '10s', 'x') },
        { requiredKeys: [] },
      ),
      'x-junk': value,
    },
    { requiredKeys: ['uses'] },
  );
const step = fc.oneof(...[...STEP_NAMES, 'update/nothing'].map(stepOf));

const target = fc.record(
  {
    server: fc.constantFrom('prod-db.example.com', ''),
    database: fc.constantFrom('PROD', 'STAGING', 'NOPE'),
    token: fc.constantFrom('prod-token', 'staging-token', '${{ secrets.TOKEN }}'),
    username: fc.constant('deploy'),
    password: fc.constant('deploy-pass'),
  },
  { requiredKeys: ['server', 'database'] },
);

/** A pipeline-shaped document (as data). */
export const pipelineData = fc.record(
  {
    version: fc.constantFrom(1, 1, 1, 2, '1'),
    name: templated,
    vars: fc.dictionary(key, value, { maxKeys: 4 }),
    targets: fc.dictionary(fc.constantFrom('prod', 'staging', '__proto__', 'x'), target, { maxKeys: 3 }),
    defaults: fc.record(
      { timeout: fc.constantFrom('1h', 'x'), 'continue-on-error': fc.boolean() },
      { requiredKeys: [] },
    ),
    steps: fc.array(step, { maxLength: 5 }),
    extra: value,
  },
  { requiredKeys: ['version', 'steps'] },
);

const SNIPPETS: fc.Arbitrary<Record<string, unknown>>[] = [
  fc.constant({ uses: 'transaction-log/clear' }),
  fc.constantFrom('critical', 'warning', 'none').map((f) => ({ uses: 'monitoring/alerts', with: { 'fail-on': f } })),
  fc.integer({ min: 0, max: 5 }).map((n) => ({ uses: 'monitoring/engines', with: { 'min-online': n } })),
  fc
    .tuple(fc.constantFrom('prod', 'staging'), fc.subarray([1001, 1002, 1004, 9999], { minLength: 1 }))
    .map(([t, files]) => ({ uses: 'update/vfs', with: { target: t, files } })),
  fc
    .subarray(['prod', 'staging'])
    .filter((a) => a.length > 0)
    .map((targets) => ({
      uses: 'update/system',
      matrix: { target: targets },
      'max-parallel': 2,
      with: { target: '${{ matrix.target }}' },
    })),
  fc.constantFrom(2001, 9).map((id) => ({ uses: 'classes/get', with: { id } })),
  fc.constantFrom(1, 2, 9).map((config) => ({ uses: 'replication/sync', with: { config } })),
  fc
    .constantFrom('1 < 2', "pipeline.name == 'x'", 'contains(vars.list, 2)', "format('{0}', 1) == '1'")
    .map((that) => ({ uses: 'assert', with: { that } })),
];

/** A pipeline that validates: known steps, with conditions, retries and continue-on-error. */
export const runnablePipelineText = fc
  .array(
    fc.tuple(
      fc.oneof(...SNIPPETS),
      fc.record(
        {
          if: fc.constantFrom('always()', 'failure()', 'success()', 'cancelled() || true'),
          'continue-on-error': fc.boolean(),
          retry: fc.constant({ attempts: 2, delay: '5s' }),
          timeout: fc.constant('30m'),
        },
        { requiredKeys: [] },
      ),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((steps) =>
    stringify({
      version: 1,
      vars: { list: [1, 2, 3] },
      targets: {
        prod: { server: 'prod-db.example.com', database: 'PROD', token: '${{ secrets.PROD_TOKEN }}' },
        staging: { server: 'staging-db.example.com', database: 'STAGING', username: 'deploy', password: 'deploy-pass' },
      },
      steps: steps.map(([s, extra]) => ({ ...s, ...extra })),
    }),
  );

/** A pipeline document as YAML text. */
export const pipelineText = pipelineData.map((d) => stringify(d, { aliasDuplicateObjects: false }));

const PIPELINES = new URL('../../pipelines/', import.meta.url);
export const COMMITTED = readdirSync(PIPELINES)
  .filter((f) => f.endsWith('.yml'))
  .sort()
  .map((f) => readFileSync(new URL(f, PIPELINES), 'utf8'));

const INSERTS = [
  ':',
  ': ',
  ' ',
  '\t',
  '\n',
  '- ',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '&a ',
  '*a',
  '!!str ',
  '!!binary ',
  '${{ ',
  ' }}',
  '#',
  '|',
  '>',
  '%YAML 1.1\n',
  '---\n',
  '...\n',
  '?',
  '@',
  '`',
  '\uFEFF',
  '\r',
  '\u0000',
  '\u2028',
  'steps:',
  'uses: ',
  '__proto__: 1\n',
  '<<: *a\n',
  '\\',
];

type Mutation = (text: string) => string;
const at = (n: number, text: string) => (text.length === 0 ? 0 : n % (text.length + 1));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })).map(
    ([i, n]) =>
      (t: string) =>
        t.slice(0, at(i, t)) + t.slice(at(i, t) + n),
  ),
  fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...INSERTS), fc.string({ unit: 'binary', maxLength: 4 }))).map(
    ([i, s]) =>
      (t: string) =>
        t.slice(0, at(i, t)) + s + t.slice(at(i, t)),
  ),
  fc.nat().map((i) => (t: string) => {
    const lines = t.split('\n');
    const k = i % lines.length;
    return [...lines.slice(0, k + 1), lines[k], ...lines.slice(k + 1)].join('\n');
  }),
  fc.tuple(fc.nat(), fc.integer({ min: -4, max: 4 })).map(([i, d]) => (t: string) => {
    const lines = t.split('\n');
    const k = i % lines.length;
    lines[k] = d >= 0 ? ' '.repeat(d) + lines[k] : lines[k]!.replace(new RegExp(`^ {0,${-d}}`), '');
    return lines.join('\n');
  }),
);

/** A committed pipeline with one to four mutations. */
export const mutatedPipeline = fc
  .tuple(fc.constantFrom(...COMMITTED), fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([text, ms]) => ms.reduce((t, m) => m(t), text));

/** The committed inventory with one to four mutations. */
export const mutatedInventory = fc
  .array(mutation, { minLength: 1, maxLength: 4 })
  .map((ms) => ms.reduce((t, m) => m(t), readFileSync(new URL('inventory/sites.yml', PIPELINES), 'utf8')));

/** Any text at all, YAML-ish or not. */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.constantFrom(...INSERTS, 'version: 1\n', 'a', '1'), { maxLength: 40 }).map((a) => a.join('')),
);
