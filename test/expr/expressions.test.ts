// The expression grammar and its semantics, table-driven.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  compileString,
  evaluate,
  parseExpression,
  references,
  resolveDeep,
  scanTemplate,
  type EvalScope,
} from '../../src/expr/index.ts';

const scope: EvalScope = {
  contexts: {
    vars: { files: [1001, 1002], name: 'Prod', n: 3, empty: '', zero: 0, obj: { a: { b: 'deep' } } },
    steps: {
      vfs: { outcome: 'success', outputs: { inserts: 2, report: '# R' } },
      'my-step': { outcome: 'failure', outputs: {} },
    },
    matrix: { target: 'prod' },
    env: { HOME: '/root' },
    pipeline: { name: 'Release' },
  },
  status: { failed: false, cancelled: false },
};

const cases: [string, unknown][] = [
  ['1', 1],
  ['-2.5', -2.5],
  ['0x1F', 31],
  ['1e3', 1000],
  ["'it''s'", "it's"],
  ['true && null', null],
  ["null || 'x'", 'x'],
  ["'' || 0", 0],
  ['!0', true],
  ['!vars.empty', true],
  ['!!vars.obj', true],
  ["'ABC' == 'abc'", true],
  ["1 == '1'", true],
  ["0 == ''", true],
  ['null == 0', true],
  ['true == 1', true],
  ["'x' == 1", false],
  ['vars.files == vars.files', true],
  ["'a' != 'B'", true],
  ['2 < 10', true],
  ["'2' < '10'", false],
  ["'b' > 'A'", true],
  ["'x' < 1", false],
  ['1 <= 1 && 2 >= 3', false],
  ['(1 < 2) == true', true],
  ['vars.files[1]', 1002],
  ["vars.obj['a'].b", 'deep'],
  ['vars.missing', null],
  ['vars.missing.deeper', null],
  ['vars.name.length', null],
  ['steps.vfs.outputs.inserts', 2],
  ['steps.my-step.outcome', 'failure'],
  ["steps['my-step'].outcome", 'failure'],
  ["contains(vars.files, '1002')", true],
  ["contains('Hello World', 'WORLD')", true],
  ['contains(vars.files, 7)', false],
  ["startsWith('Release 1', 'rel')", true],
  ["endsWith('x.yml', '.YML')", true],
  ["format('{0}-{1} {{x}}', 'a', 2)", 'a-2 {x}'],
  ['join(vars.files)', '1001,1002'],
  ["join(vars.files, '; ')", '1001; 1002'],
  ['toJSON(vars.files)', '[\n  1001,\n  1002\n]'],
  ['fromJSON(\'{"a":[1]}\').a[0]', 1],
  ['success()', true],
  ['failure()', false],
  ['always()', true],
  ['cancelled()', false],
  ['pipeline.name', 'Release'],
];

for (const [source, expected] of cases) {
  test(`evaluates ${source}`, () => {
    assert.deepEqual(evaluate(parseExpression(source), scope), expected);
  });
}

const errors: [string, RegExp, number][] = [
  ['1 +', /\+ is not an operator/, 2],
  ['foo.bar', /unknown context foo; contexts are env, secrets/, 0],
  ['vars.x ==', /ends too early/, 9],
  ['nope()', /unknown function nope\(\)/, 0],
  ['contains(1)', /contains\(\) takes 2 argument\(s\), got 1/, 0],
  ['"double"', /strings use single quotes/, 0],
  ["'open", /unterminated string/, 0],
  ['(1', /expected a closing \)/, 2],
  ['vars.', /expected a property name/, 5],
  ['1 2', /unexpected 2 after the expression/, 2],
];

for (const [source, message, offset] of errors) {
  test(`rejects ${source} at offset ${offset}`, () => {
    assert.throws(
      () => parseExpression(source),
      (e: Error & { offset: number }) => message.test(e.message) && e.offset === offset,
    );
  });
}

/** A string of a pipeline file, compiled at load and resolved at run time. */
const resolveString = (text: string, s: EvalScope) => resolveDeep(compileString(text), s);

test('a whole-value expression keeps its type; mixed text interpolates', () => {
  assert.deepEqual(resolveString('${{ vars.files }}', scope), [1001, 1002]);
  assert.equal(resolveString('  ${{ vars.n }} ', scope), 3);
  assert.equal(
    resolveString('n=${{ vars.n }}, files=${{ vars.files }}, none=${{ null }}', scope),
    'n=3, files=[1001,1002], none=',
  );
  assert.equal(resolveString('no expression', scope), 'no expression');
  assert.equal(resolveString("${{ '}}' }}", scope), '}}', '}} inside a string literal does not close');
});

test('template errors point at the column inside the string', () => {
  assert.throws(
    () => scanTemplate('abc ${{ vars.x == }}'),
    (e: Error & { offset: number }) => e.offset === 18,
  );
  assert.throws(
    () => scanTemplate('x ${{ vars.x'),
    (e: Error & { offset: number }) => /not closed/.test(e.message) && e.offset === 2,
  );
});

test('failure() and cancelled() follow the run status; success() is false after a failure', () => {
  const failed = { ...scope, status: { failed: true, cancelled: false } };
  assert.equal(evaluate(parseExpression('success()'), failed), false);
  assert.equal(evaluate(parseExpression("failure() && steps.vfs.outcome == 'success'"), failed), true);
  assert.equal(
    evaluate(parseExpression('cancelled()'), { ...scope, status: { failed: false, cancelled: true } }),
    true,
  );
});

test('references lists every context path with literal indexes', () => {
  const refs = references(
    parseExpression("steps.vfs.outputs['inserts'] > 0 && contains(vars.files, matrix.target) || secrets.TOKEN"),
  );
  assert.deepEqual(
    refs.map((r) => r.path.join('.')),
    ['steps.vfs.outputs.inserts', 'vars.files', 'matrix.target', 'secrets.TOKEN'],
  );
});

test('a computed index ends the static path of a reference', () => {
  const refs = references(parseExpression('targets[matrix.target].database'));
  assert.deepEqual(
    refs.map((r) => r.path.join('.')),
    ['targets', 'matrix.target'],
  );
});

test('member access never reaches prototypes', () => {
  assert.equal(evaluate(parseExpression('vars.constructor'), scope), null);
  assert.equal(evaluate(parseExpression("vars['__proto__']"), scope), null);
  assert.equal(evaluate(parseExpression('vars.files.length'), scope), null);
});
