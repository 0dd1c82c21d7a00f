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
  for (const [from, forbidden] of [
    ['cli', 'action'],
    ['action', 'cli'],
  ] as const) {
    for (const file of files(join(SRC, from))) {
      for (const { spec, folder } of importedFolders(file))
        if (folder === forbidden) offending.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offending, []);
  const usesApp = (folder: string) =>
    files(join(SRC, folder)).some((f) => importedFolders(f).some((i) => i.folder === 'app'));
  assert.ok(usesApp('cli') && usesApp('action'));
  // Neither edge runs a pipeline itself.
  for (const folder of ['cli', 'action']) {
    for (const file of files(join(SRC, folder)))
      assert.doesNotMatch(readFileSync(file, 'utf8'), /runner\/run-pipeline\.ts/, `${file} runs the pipeline itself`);
  }
});

test('the single-step actions build their pipeline from values: no YAML text is written or parsed', () => {
  const text = readFileSync(join(SRC, 'action', 'step-pipeline.ts'), 'utf8');
  assert.doesNotMatch(text, /from 'yaml'|loadPipeline|stringify\(/);
});

/**
 * The floors of src/, lowest first (README, "Layout"). A folder imports only from floors below
 * its own: never up, never sideways, so each floor can be read and changed knowing only those
 * below it. The files directly in src/ (errors, durations, sizes, the version) are the ground.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['', 'text'],
  ['api', 'expr', 'store', 'schedule'],
  ['emulator', 'steps', 'shard'],
  ['pipeline'],
  ['runner'],
  ['report', 'log'],
  ['ci', 'journal'],
  ['app'],
  ['cli', 'action'],
];

const folderOf = (file: string) => {
  const parts = relative(SRC, file).split('/');
  return parts.length > 1 ? parts[0]! : '';
};

test('every folder of src/ imports only from the floors below it (README, Layout)', () => {
  const floor = new Map(FLOORS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const unplaced = [...new Set(files(SRC).map(folderOf))].filter((f) => !floor.has(f));
  assert.deepEqual(unplaced, [], 'a new folder of src/ gets its floor here and in the README');
  const offending: string[] = [];
  for (const file of files(SRC)) {
    const from = folderOf(file);
    for (const { spec } of importedFolders(file)) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(resolve(SRC))) continue;
      const to = folderOf(relative('.', target));
      if (to !== from && (from === '' ? to !== '' : floor.get(to)! >= floor.get(from)!))
        offending.push(`${file} imports ${spec} (${to || 'src/'} is not below ${from || 'src/'})`);
    }
  }
  assert.deepEqual(offending, []);
});

test('no import circle between the files of src/, type-only imports included', () => {
  const graph = new Map(
    files(SRC).map((file) => [
      file,
      importedFolders(file)
        .map(({ spec }) => relative('.', resolve(dirname(file), spec)))
        .filter((t) => t.endsWith('.ts')),
    ]),
  );
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const circles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  assert.deepEqual(circles, []);
});

test('no file of src/ is over 250 lines without the reason at its top', () => {
  const long = files(SRC).filter((file) => {
    const text = readFileSync(file, 'utf8');
    return (
      text.split('\n').length > 251 && !/^\/\/ Longer than 250 lines: \S/m.test(text.split('\n').slice(0, 8).join('\n'))
    );
  });
  assert.deepEqual(long, []);
});

test("the README's layout table lists the floors as they are", () => {
  const readme = readFileSync('README.md', 'utf8');
  const rows = [...readme.matchAll(/^\| (\d) \| (`src\/\*\.ts`, )?`src\/([a-z]+)\/` \|/gm)].map(
    (m) => [Number(m[1]), m[3]!] as const,
  );
  const expected = FLOORS.flatMap((folders, i) => folders.filter((f) => f !== '').map((f) => [i, f] as const));
  assert.deepEqual(rows, expected);
});

test('each API path is written once, in src/api/: no /api/ path literal elsewhere in src/', () => {
  const outside = files(SRC)
    .filter((f) => !f.startsWith(join(SRC, 'api')))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${f}:${i + 1}`, line })),
    )
    .filter(({ line }) => /['"`]\/api\//.test(line.replace(/\/\/.*$|^\s*\*.*$/, '')));
  assert.deepEqual(
    outside.map((o) => o.where),
    [],
    "build the path from src/api/ (areas.ts, an area's call builders)",
  );
});

test("src/emulator takes neither the client's request schemas nor its scope table: it reads the contract itself", () => {
  // The emulator must never hide the client's bugs: one rule shared by both sides is wrong on both
  // at once, and no run against the emulator can show it. Type-only, dynamic and indirect imports
  // (through another file of src/api/, such as its index) count too.
  const client = [resolve(SRC, 'api', 'schemas'), resolve(SRC, 'api', 'scopes.ts')];
  const isClient = (target: string) => client.some((c) => target === c || target.startsWith(`${c}/`));
  const imports = (file: string) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g)].map((m) =>
      resolve(dirname(file), m[1]!),
    );
  const offending: string[] = [];
  for (const file of files(join(SRC, 'emulator'))) {
    const seen = new Set<string>();
    const walk = (from: string, chain: string[]) => {
      for (const target of imports(from)) {
        if (isClient(target)) offending.push([...chain, relative('.', target)].join(' -> '));
        else if (!seen.has(target) && target.startsWith(resolve(SRC, 'api')) && target.endsWith('.ts')) {
          seen.add(target);
          walk(target, [...chain, relative('.', target)]);
        }
      }
    };
    walk(file, [file]);
  }
  assert.deepEqual(offending, []);
});
