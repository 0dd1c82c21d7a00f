// Sizes of the committed bundles: the CLI (dist/cli.mjs and its chunks under dist/cli/, and what a
// cold `validate` loads of them), and each action (its entry plus every chunk it imports, as the
// runner loads them). Targets: the CLI <= 1.5 MB, each action <= 3 MB.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './lib.mjs';

const MB = 1_000_000;

const STATIC = /(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g;
const EVERY = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

/** The bytes a module loads: itself and, transitively, the relative modules it imports (`imports`:
 * the static ones only, or the dynamic ones too). */
function loaded(file, imports = EVERY, seen = new Set()) {
  if (seen.has(file)) return 0;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  let bytes = statSync(file).size;
  for (const m of text.matchAll(imports)) bytes += loaded(join(dirname(file), m[1]), imports, seen);
  return bytes;
}

export async function run() {
  const cli = loaded(join(ROOT, 'dist/cli.mjs'));
  const seen = new Set();
  const validateChunk = readdirSync(join(ROOT, 'dist/cli')).find((f) => f.startsWith('validate-'));
  const validate =
    loaded(join(ROOT, 'dist/cli.mjs'), STATIC, seen) + loaded(join(ROOT, 'dist/cli', validateChunk), STATIC, seen);
  const rows = [
    {
      name: 'size: the CLI, dist/cli.mjs + dist/cli/',
      figure: `${(cli / MB).toFixed(2)} MB`,
      target: '<= 1.5 MB',
      holds: cli <= 1.5 * MB,
    },
    { name: 'size: what a cold validate loads of it', figure: `${(validate / MB).toFixed(2)} MB`, target: 'reported' },
  ];
  for (const name of ['main', 'vfs-update', 'system-update', 'replication-sync', 'transaction-log-clear']) {
    const bytes = loaded(join(ROOT, `dist/action/${name}.mjs`));
    rows.push({
      name: `size: action ${name === 'main' ? '(root)' : name}, entry + chunks`,
      figure: `${(bytes / MB).toFixed(2)} MB`,
      target: '<= 3 MB',
      holds: bytes <= 3 * MB,
    });
  }
  return rows;
}
