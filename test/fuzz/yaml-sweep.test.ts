// Every one-character slip in a committed file, tried: inserted or replacing, at every place, each
// of YAML's indicators. Wherever the fast parser (js-yaml on a plain subset) accepts the result, it
// must read exactly what `yaml` reads: the same data (numbers to the sign of a zero and past a
// double), and no file that `yaml` refuses. The random properties (properties.test.ts) found such
// slips one seed at a time (`"x"#`, `{ a: 1 }#`); this tries all of them. `npm test` sweeps the
// inventory, one pipeline and a file of the YAML the pipelines do not hold (block scalars,
// multi-line scalars, numbers: test/fixtures/yaml-sweep.yml); `npm run fuzz` every committed
// pipeline too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseDocument } from 'yaml';
import { MAX_ALIAS_COUNT } from '../../src/pipeline/yaml-doc.ts';
import { fastData } from '../../src/pipeline/yaml-fast.ts';
import { exactly } from '../helpers/exact-json.ts';

const ALL = Number(process.env.FUZZ_RUNS ?? 1) > 1;
const PIPELINES = new URL('../../pipelines/', import.meta.url);
const FILES = [
  new URL('inventory/sites.yml', PIPELINES),
  new URL('license-renewal.yml', PIPELINES),
  new URL('../fixtures/yaml-sweep.yml', import.meta.url),
  ...(ALL
    ? readdirSync(PIPELINES)
        .filter((f) => f.endsWith('.yml') && f !== 'license-renewal.yml')
        .map((f) => new URL(f, PIPELINES))
    : []),
];
const INDICATORS = [...'#"\':,[]{}-&*!?|>%@` \n'];

/** What `yaml` reads, as the loader would take it: the data, or that it refuses the file. */
function yamlReads(text: string): string {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, logLevel: 'error' });
  if (doc.errors.length > 0) return `refused: ${doc.errors[0]!.code}`;
  try {
    return exactly(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

for (const url of FILES) {
  const file = url.pathname.split('/').slice(-2).join('/');
  test(`YAML: every one-character slip in ${file} that the fast parser accepts reads as \`yaml\` reads it`, () => {
    const text = readFileSync(url, 'utf8');
    const differ: string[] = [];
    let fast = 0;
    for (let i = 0; i <= text.length; i++) {
      for (const c of INDICATORS) {
        for (const slip of [text.slice(0, i) + c + text.slice(i), text.slice(0, i) + c + text.slice(i + 1)]) {
          const read = fastData(slip);
          if (!read) continue;
          fast++;
          const expected = yamlReads(slip);
          if (exactly(read.data) !== expected && differ.length < 5) {
            const line = slip.slice(0, i).split('\n').length;
            differ.push(`line ${line}: ${JSON.stringify(slip.split('\n')[line - 1])} → yaml: ${expected.slice(0, 80)}`);
          }
        }
      }
    }
    assert.deepEqual(differ, [], `the fast parser read these otherwise than \`yaml\``);
    // A file the fast path reads as it is (the pipelines with anchors or tags are not) is read so after most slips.
    if (fastData(text)) assert.ok(fast > text.length, `${fast} slips took the fast path`);
  });
}
