// The layout the README describes: the CLI and the actions are two edges over one composition
// of a run (src/app/), and neither reaches into the other.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { test } from 'node:test';

const SRC = 'src';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The src/ folders a file imports from (its own included). */
function importedFolders(file: string): { spec: string; folder: string }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((m) => {
    const target = relative(SRC, resolve(dirname(file), m[1]!));
    return { spec: m[1]!, folder: target.split('/')[0]! };
  });
}

test('src/cli and src/action do not import each other; both reach the run through src/app', () => {
  const offending: string[] = [];
  for (const [from, forbidden] of [['cli', 'action'], ['action', 'cli']] as const) {
    for (const file of files(join(SRC, from))) {
      for (const { spec, folder } of importedFolders(file)) if (folder === forbidden) offending.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offending, []);
  const usesApp = (folder: string) => files(join(SRC, folder)).some((f) => importedFolders(f).some((i) => i.folder === 'app'));
  assert.ok(usesApp('cli') && usesApp('action'));
  // Neither edge runs a pipeline itself.
  for (const folder of ['cli', 'action']) {
    for (const file of files(join(SRC, folder))) assert.doesNotMatch(readFileSync(file, 'utf8'), /runner\/run-pipeline\.ts/, `${file} runs the pipeline itself`);
  }
});

test('the single-step actions build their pipeline from values: no YAML text is written or parsed', () => {
  const text = readFileSync(join(SRC, 'action', 'step-pipeline.ts'), 'utf8');
  assert.doesNotMatch(text, /from 'yaml'|loadPipeline|stringify\(/);
});
