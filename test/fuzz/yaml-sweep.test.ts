// Every one-character slip in a committed file, tried: inserted or replacing, at every place, each
// of YAML's indicators. Wherever the fast parser (js-yaml on a plain subset) accepts the result, it
// must read exactly what `yaml` reads: the same data, and no file that `yaml` refuses. The random
// properties (properties.test.ts) found such slips one seed at a time (`"x"#`, `{ a: 1 }#`); this
// tries all of them. `npm test` sweeps one pipeline and the inventory; `npm run fuzz` every
// committed pipeline.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseDocument } from 'yaml';
import { fastData, MAX_ALIAS_COUNT } from '../../src/pipeline/yaml-doc.ts';

const ALL = Number(process.env.FUZZ_RUNS ?? 1) > 1;
const DIR = new URL('../../pipelines/', import.meta.url);
const FILES = ALL
  ? ['inventory/sites.yml', ...readdirSync(DIR).filter((f) => f.endsWith('.yml'))]
  : ['inventory/sites.yml', 'license-renewal.yml'];
const INDICATORS = [...'#"\':,[]{}-&*!?|>%@` \n'];

/** What `yaml` reads, as the loader would take it: the data, or that it refuses the file. */
function yamlReads(text: string): string {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, logLevel: 'error' });
  if (doc.errors.length > 0) return `refused: ${doc.errors[0]!.code}`;
  try {
    return JSON.stringify(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

for (const file of FILES) {
  test(`YAML: every one-character slip in pipelines/${file} that the fast parser accepts reads as \`yaml\` reads it`, () => {
    const text = readFileSync(new URL(file, DIR), 'utf8');
    const differ: string[] = [];
    let fast = 0;
    for (let i = 0; i <= text.length; i++) {
      for (const c of INDICATORS) {
        for (const slip of [text.slice(0, i) + c + text.slice(i), text.slice(0, i) + c + text.slice(i + 1)]) {
          const read = fastData(slip);
          if (!read) continue;
          fast++;
          const expected = yamlReads(slip);
          if (JSON.stringify(read.data) !== expected && differ.length < 5) {
            const line = slip.slice(0, i).split('\n').length;
            differ.push(`line ${line}: ${JSON.stringify(slip.split('\n')[line - 1])} → yaml: ${expected.slice(0, 80)}`);
          }
        }
      }
    }
    assert.deepEqual(differ, [], `the fast parser read these otherwise than \`yaml\``);
    assert.ok(fast > text.length, `${fast} slips took the fast path`);
  });
}
