// Sizes of the committed bundles: the CLI (dist/cli.mjs),
// and each action (its entry plus every chunk it imports, as the runner loads them). Targets:
// cli <= 1.5 MB, each action <= 3 MB.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './lib.mjs';

const MB = 1_000_000;

/** The bytes a module loads: itself and, transitively, the relative modules it imports. */
function loaded(file, seen = new Set()) {
  if (seen.has(file)) return 0;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  let bytes = statSync(file).size;
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) bytes += loaded(join(dirname(file), m[1]), seen);
  return bytes;
}

export async function run() {
  const cli = statSync(join(ROOT, 'dist/cli.mjs')).size;
  const rows = [{ name: 'size: dist/cli.mjs', figure: `${(cli / MB).toFixed(2)} MB`, target: '<= 1.5 MB', holds: cli <= 1.5 * MB }];
  for (const name of ['main', 'vfs-update', 'system-update', 'replication-sync', 'transaction-log-clear']) {
    const bytes = loaded(join(ROOT, `dist/action/${name}.mjs`));
    rows.push({ name: `size: action ${name === 'main' ? '(root)' : name}, entry + chunks`, figure: `${(bytes / MB).toFixed(2)} MB`, target: '<= 3 MB', holds: bytes <= 3 * MB });
  }
  return rows;
}
