// Property-based tests: random, generated and mutated pipeline files and expressions never crash
// the validator or the runner. Each rejection is exit 2 with FILE:LINE:COL; nothing ends in an
// "internal error" or a stack trace. `npm test` runs a bounded number of cases (FUZZ_RUNS scales
// them: `npm run fuzz` runs twenty times as many); a failure prints fast-check's seed to replay.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { runCommand } from '../../src/cli/run-command.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { evaluate, ExprError, parseExpression } from '../../src/expr/index.ts';
import { EnginectlError } from '../../src/errors.ts';
import { exactly } from '../helpers/exact-json.ts';
import {
  anyText,
  expressionBody,
  mutatedInventory,
  mutatedPipeline,
  pipelineText,
  runnablePipelineText,
} from './arbitraries.ts';

const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

const FILE = 'fuzz.yml';
const ENV = {
  ENGINE_URL: 'http://127.0.0.1:9',
  ENGINE_USERNAME: 'admin',
  ENGINE_PASSWORD: 'admin',
  TOKEN: 'prod-token',
  HOME: '/home/x',
  // the secrets of pipelines/*.yml
  PROD_TOKEN: 'prod-token',
  STAGING_TOKEN: 'staging-token',
  QA_TOKEN: 'qa-token',
  PROD_DEPLOY_PASSWORD: 'deploy-pass',
};

/** Runs a CLI command in-process on `text` as the file, as the process edge would. */
async function cli(args: string[], text: string) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stdoutIsTTY: false,
    env: ENV,
    cwd: '/nonexistent',
    signal: new AbortController().signal,
    readFile: async (path) => {
      if (path !== FILE) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return text;
    },
    readStdin: async () => '',
  };
  const code = await runCommand(args, io);
  return { code, stdout, stderr };
}

/** What every answer to a pipeline file must look like. */
function assertCalm(r: { code: number; stdout: string; stderr: string }, allowed: number[], text: string) {
  const context = `for the file:\n${JSON.stringify(text)}\nstderr:\n${r.stderr}`;
  assert.ok(allowed.includes(r.code), `exit ${r.code} ${context}`);
  assert.doesNotMatch(r.stdout + r.stderr, /internal error|\n\s+at .+:\d+:\d+/, `a crash ${context}`);
  if (r.code === 2) {
    const lines = r.stderr.trimEnd().split('\n');
    assert.match(
      lines[0]!,
      new RegExp(`^(enginectl: )?${FILE}:\\d+:\\d+ \\S`),
      `the first problem has a location ${context}`,
    );
    for (const line of lines)
      assert.match(
        line,
        new RegExp(`^((enginectl: )?${FILE}:\\d+:\\d+ \\S|  |\\d+ problem\\(s\\) in ${FILE}$)`),
        `every line is a located problem, its source or its hint ${context}`,
      );
  }
}

test('validate: random text never crashes it; every rejection is exit 2 with a location', async () => {
  await fc.assert(
    fc.asyncProperty(anyText, async (text) => assertCalm(await cli(['validate', FILE], text), [0, 2], text)),
    { numRuns: runs(300) },
  );
});

test('validate: generated pipeline documents (known keys, odd values, __proto__) are accepted or located', async () => {
  await fc.assert(
    fc.asyncProperty(pipelineText, async (text) => assertCalm(await cli(['validate', FILE], text), [0, 2], text)),
    { numRuns: runs(300) },
  );
});

test('validate: the committed pipelines, mutated, are accepted or located', async () => {
  await fc.assert(
    fc.asyncProperty(mutatedPipeline, async (text) => assertCalm(await cli(['validate', FILE], text), [0, 2], text)),
    { numRuns: runs(300) },
  );
});

test('run --emulator: generated and mutated pipelines run, fail or are refused, never crash', async () => {
  let ran = 0;
  await fc.assert(
    fc.asyncProperty(fc.oneof(runnablePipelineText, mutatedPipeline, pipelineText), async (text) => {
      const r = await cli(['run', FILE, '--emulator'], text);
      assertCalm(r, [0, 1, 2], text);
      if (r.code !== 2) {
        ran++;
        const outcome = /": (success|failure) in \S+ \(\d+ step run\(s\)/.exec(r.stdout)?.[1];
        assert.equal(
          outcome,
          r.code === 0 ? 'success' : 'failure',
          `the summary line agrees with exit ${r.code}:\n${r.stdout}`,
        );
      }
    }),
    { numRuns: runs(40) },
  );
  assert.ok(ran > 0, 'some generated pipelines were valid and ran');
});

test('expressions: parsing and evaluating any text throws only a located ExprError', () => {
  const scope = {
    contexts: {
      vars: { files: [1, 2] },
      env: { HOME: '/h' },
      secrets: {},
      steps: { a: { outcome: 'success', outputs: { x: 1 } } },
      matrix: { target: 'prod' },
      targets: { prod: { database: 'PROD' } },
      pipeline: { name: 'p' },
    },
    status: { failed: false, cancelled: false },
  };
  fc.assert(
    fc.property(expressionBody, (text) => {
      try {
        evaluate(parseExpression(text), scope);
      } catch (error) {
        if (error instanceof ExprError) {
          assert.ok(
            Number.isInteger(error.offset) && error.offset >= 0 && error.offset <= text.length,
            `offset ${error.offset} within ${JSON.stringify(text)}`,
          );
          return;
        }
        if (error instanceof EnginectlError) return;
        throw error;
      }
    }),
    { numRuns: runs(2000) },
  );
});

test('YAML: loading with the fast parser gives what loading with `yaml` alone gives: the same pipeline, or the same problems', async () => {
  const { loadPipeline } = await import('../../src/pipeline/load.ts');
  const { fastData } = await import('../../src/pipeline/yaml-fast.ts');
  const load = (text: string, fastYaml: boolean) => {
    try {
      return { pipeline: exactly(loadPipeline({ file: FILE, text, env: ENV, fastYaml }).pipeline) };
    } catch (error) {
      if (error instanceof EnginectlError) return { refused: error.describe() };
      throw error;
    }
  };
  let fast = 0;
  const agree = (text: string) => {
    if (fastData(text)) fast++;
    assert.deepEqual(load(text, true), load(text, false), `the two readings differ:\n${JSON.stringify(text)}`);
  };
  // Counterexamples of the two parsers found so far, kept: a lone CR, a tab, explicit, empty and
  // collection keys, multi-line flows and quotes, a comment glued to a quote.
  for (const text of [
    '\r',
    '\t:[',
    '?',
    '::\r',
    'a: {: [x, y]}\n',
    ': x\n',
    'a: [1,\n 2]\n',
    'a: "x\n...\ny"\n',
    'a: { [b] }\n',
    '[:]',
    '[]:',
    '{}:',
    "''#",
    // Plain scalars js-yaml and `yaml`'s core schema resolve differently (a var read as 5 or "0b0101").
    'version: 1\nvars:\n  a: 0b0101\n  b: -.5\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nvars:\n  c: [-0x1F, +0o7, +.5e3]\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nvars:\n  m: { ~: x }\n  n:\n    null: y\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    // A comment glued to a closing quote: js-yaml reads it, `yaml` refuses it (found by CI's seed -420615117).
    'version: 1\nvars:\n  release: "26.11.0"#\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    // A comment glued to a closing brace (CI's seed -801053503), and what the sweep of every
    // one-character slip found beside it (yaml-sweep.test.ts): a lone tag, an empty key before a
    // collection, a collection as a key, an empty sequence entry before a less indented one.
    'version: 1\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }#\n',
    'version: !\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nvars:\n  w: [:[test], rest]\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nvars:\n  w: [[test]:, rest]\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nsteps:\n  - uses: assert\n    with:\n      l:\n        - #{ a: 1 }\n\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    // What a review found past those: a number past a double (a string to js-yaml, Infinity to
    // `yaml`), minus zero, a null key without its colon, a comment line glued to its `#` after an
    // empty value, a \U escape past Unicode, a key over 1,024 characters.
    'version: 1\nvars:\n  big: 1e400\n  digits: ' +
      '9'.repeat(400) +
      '\n  zero: [1, -0]\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nsteps:\n  - uses: assert\n    with: {~, that: "1 < 2"}\n',
    'version: 1\nsteps:\n  - uses: assert\n    with:\n      that:\n#TODO\n        1 < 2\n      message: m\n',
    'version: 1\nvars:\n  u: "\\U00110000"\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
    'version: 1\nvars:\n  ' + 'k'.repeat(1100) + ': 1\nsteps:\n  - uses: assert\n    with: { that: "1 < 2" }\n',
  ])
    agree(text);
  fc.assert(fc.property(fc.oneof(anyText, pipelineText, mutatedPipeline, runnablePipelineText), agree), {
    numRuns: runs(1000),
  });
  assert.ok(fast > 100, `${fast} files took the fast path`);
});

test('YAML: an inventory reads the same with the fast parser as with `yaml` alone: the same pipeline, or the same problems', async () => {
  const { loadPipeline } = await import('../../src/pipeline/load.ts');
  const { fastData } = await import('../../src/pipeline/yaml-fast.ts');
  const pipeline = readFileSync(new URL('../../pipelines/three-site-release.yml', import.meta.url), 'utf8');
  const load = (inventory: string, fastYaml: boolean) => {
    try {
      const readInclude = () => inventory;
      return {
        pipeline: exactly(
          loadPipeline({ file: FILE, text: pipeline, env: ENV, fastYaml, readInclude, checkEnv: false }).pipeline,
        ),
      };
    } catch (error) {
      if (error instanceof EnginectlError) return { refused: error.describe() };
      throw error;
    }
  };
  let fast = 0;
  let loaded = 0;
  const agree = (inventory: string) => {
    if (fastData(inventory)) fast++;
    const read = load(inventory, true);
    if ('pipeline' in read) loaded++;
    assert.deepEqual(read, load(inventory, false), `the two readings differ:\n${JSON.stringify(inventory)}`);
  };
  // A name defined twice, in the pipeline and in the inventory, is said with both places.
  agree('vars:\n  files: [1]\n');
  // Plain scalars js-yaml and `yaml`'s core schema resolve differently, in an inventory's vars.
  const committed = readFileSync(new URL('../../pipelines/inventory/sites.yml', import.meta.url), 'utf8');
  agree(committed.replace(/^vars:\n/m, 'vars:\n  offset: -.5\n  code: 0b0101\n  hex: -0x1F\n  m: { ~: x }\n'));
  fc.assert(fc.property(fc.oneof(anyText, mutatedInventory), agree), { numRuns: runs(500) });
  assert.ok(fast > 50 && loaded > 20, `${fast} inventories took the fast path, ${loaded} loaded`);
});

test('the JSON report written in pieces is exactly JSON.stringify(report, null, 2)', async () => {
  const { jsonPieces } = await import('../../src/report/json.ts');
  const withGaps = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(
      fc.string(),
      fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(Number.NaN), fc.date({ noInvalidDate: true })),
    ),
  );
  fc.assert(
    fc.property(withGaps, (value) => {
      assert.equal([...jsonPieces(value)].join(''), JSON.stringify(value, null, 2));
    }),
    { numRuns: runs(1000) },
  );
  // A value too big to be one piece is its members' pieces: each small one made at once and
  // indented as deep as it is, at any depth.
  const pad = 'x'.repeat(1 << 16);
  fc.assert(
    fc.property(withGaps, (value) => {
      const nested = { pad, list: [pad, value, { value, pad }] };
      assert.equal([...jsonPieces(nested)].join(''), JSON.stringify(nested, null, 2));
    }),
    { numRuns: runs(200) },
  );
  // Strings over 1 MiB are escaped in slices: quotes, controls and a surrogate pair on every edge.
  const { SLICE } = await import('../../src/report/json.ts');
  const big = `${'a'.repeat(SLICE - 1)}😀"\n\u0001${'b'.repeat(SLICE - 2)}😀${'é'.repeat(SLICE)}`;
  assert.equal([...jsonPieces({ report: big })].join(''), JSON.stringify({ report: big }, null, 2));
});

test('masking: any secret, in any encoding of the table, inside any text, is gone; text without secrets is untouched', async () => {
  const { Masker } = await import('../../src/runner/masker.ts');
  const { ENCODINGS } = await import('../helpers/secrets.ts');
  const secret = fc
    .string({
      unit: fc.oneof(fc.constantFrom(...' /+=@"\'<>&%\\_*é😀\n'), fc.stringMatching(/^[A-Za-z0-9]$/)),
      minLength: 6,
      maxLength: 30,
    })
    // Every line a secret of its own, with at least 3 characters a page shows (a secret of white space and `_` is not one).
    // A page hides `_`, `*`, `\\` and `]` (text/decoded-view.ts hiddenOnPage): a secret that shows fewer than 3 other
    // characters (`\\_*\\*/` shows one `/`) reads on a page as text that holds no secret, and is masked there too.
    .filter(
      (s) =>
        s
          .split('\n')
          .every((l) => l.trim().length === 0 || (l.trim().length >= 6 && l.replace(/[\s_*\\\]]/g, '').length >= 3)) &&
        s.trim().length >= 6,
    );
  const encodings = Object.entries(ENCODINGS);
  fc.assert(
    fc.property(
      secret,
      fc.integer({ min: 0, max: encodings.length - 1 }),
      fc.string(),
      fc.string(),
      (value, which, before, after) => {
        const masker = new Masker();
        masker.add(value);
        const [name, encode] = encodings[which]!;
        // Echoed as servers do, apart from the text around it (a `\\` or `%0` right before it would
        // make its first character part of an escape).
        const masked = masker.mask(`${before} ${encode(value)} ${after}`);
        for (const part of value.split('\n').filter((l) => l.trim().length >= 6))
          assert.ok(
            !masked.includes(encode(part.trim())),
            `${name} of ${JSON.stringify(value)} in ${JSON.stringify(masked)}`,
          );
        // Text that holds no form of a secret comes back as it was.
        if (!`${before}${after}`.includes(value.trim().slice(0, 3)))
          assert.equal(masker.mask(`${before}|${after}`), `${before}|${after}`);
      },
    ),
    { numRuns: runs(1000) },
  );
  // A secret a page shows fewer than 3 characters of is still gone in every encoding (fast-check
  // seed 364234991 found `=a*\\ \\` JSON-escaped left whole when such secrets were matched only as written).
  for (const value of ['=a*\\ \\', '\\_*\\*/'])
    for (const [name, encode] of encodings) {
      const sparse = new Masker();
      sparse.add(value);
      assert.ok(!sparse.mask(`x ${encode(value)} y`).includes(encode(value)), `${name} of ${JSON.stringify(value)}`);
    }
  // Across the edge of the windows a long text is searched in.
  const masker = new Masker();
  masker.add('a%b c/d@secret');
  for (const at of [(1 << 20) - 20, (1 << 20) - 3, 1 << 20, (2 << 20) + 7]) {
    const text = `${'x'.repeat(at)}${encodeURIComponent('a%b c/d@secret')}${'y'.repeat(100)}`;
    assert.ok(!masker.mask(text).includes('secret'), `at ${at}`);
  }
});

test('masking a value: the same as masking each string and key, and each number that is a secret of 6 digits or more; the original is never changed; nothing to mask, nothing copied', async () => {
  const { Masker, MASK } = await import('../../src/runner/masker.ts');
  const { CREDENTIAL_FIELDS } = await import('../../src/api/credentials.ts');
  const SECRET = 'S3cr3t-value';
  // A passcode, masked where it is a typed number; a 4-digit one is a number like any other.
  const [PASSCODE, PIN] = [482913, 4711];
  const text = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom(SECRET, `x ${SECRET} y`, 'targetAuthToken', 'password', '__proto__'),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constantFrom(PASSCODE, PIN),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(tie('node')),
      fc.dictionary(text, tie('node')),
    ),
  })).node;
  // What masking means, written plainly: every string and key masked, a credential field whole, the
  // passcode as a number too, undefined keys left out.
  const expected = (masker: InstanceType<typeof Masker>, v: unknown, credential = false): unknown => {
    if (typeof v === 'string') return credential && v !== '' ? MASK : masker.mask(v);
    if (typeof v === 'number') return credential || v === PASSCODE ? MASK : v;
    if (Array.isArray(v)) return v.map((x) => expected(masker, x, credential));
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([, x]) => x !== undefined)
          .map(([k, x]) => [masker.mask(k), expected(masker, x, CREDENTIAL_FIELDS.has(k))]),
      );
    return v;
  };
  fc.assert(
    fc.property(value, (v) => {
      const masker = new Masker();
      masker.add(SECRET);
      masker.add(String(PASSCODE));
      masker.add(String(PIN));
      const snapshot = () => String(JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '(undefined)' : x)));
      const before = snapshot();
      const masked = masker.maskValue(v);
      assert.equal(snapshot(), before, 'the original is not changed');
      assert.equal(JSON.stringify(masked), JSON.stringify(expected(masker, v)));
      if (
        !before.includes(SECRET) &&
        !before.includes(String(PASSCODE)) &&
        !before.includes('(undefined)') &&
        ![...CREDENTIAL_FIELDS].some((k) => before.includes(`"${k}":`))
      )
        assert.equal(masked, v, 'nothing masked: the value itself');
    }),
    { numRuns: runs(500) },
  );
});

test('a journal line with its long strings encoded a window at a time is byte for byte the line of the whole record', async () => {
  const { decodeLine, encodeLineBytes } = await import('../../src/journal/frame.ts');
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', 'é', '😀', '\ud800', '\udc00'),
      fc.stringMatching(/^[a-z]$/),
    ),
    maxLength: 40,
  });
  const record = fc.record({
    t: fc.constant('end'),
    key: text,
    run: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.array(text))),
    report: text,
  });
  fc.assert(
    fc.property(record, fc.integer({ min: 1, max: 9 }), (r, window) => {
      const whole = Buffer.concat(encodeLineBytes(r, Number.MAX_SAFE_INTEGER));
      const windowed = Buffer.concat(encodeLineBytes(r, window));
      assert.equal(windowed.toString('hex'), whole.toString('hex'));
      assert.deepEqual(decodeLine(windowed.toString('utf8').slice(0, -1)), JSON.parse(JSON.stringify(r)));
    }),
    { numRuns: runs(1000) },
  );
});
