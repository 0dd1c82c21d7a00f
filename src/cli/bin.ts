#!/usr/bin/env node
// Entry of the enginectl CLI, bundled to dist/cli.mjs with its code in chunks under dist/cli/
// (each command's imported when it runs): nothing is read at start-up but the package's own files
// (no code cache: a cache file is code another user could plant). It imports none of them
// statically, so that a copy without them (dist/cli.mjs copied alone, or over another build's
// dist/cli/) is told as what it is, exit 2 before anything runs, not as Node's stack trace: this
// message is printed here, where nothing of the CLI's own code has loaded.
import { fileURLToPath } from 'node:url';

/** The file of the CLI's own code that could not be loaded (the bundle imports no package at run time). */
function missingFile(error: unknown): string | undefined {
  const { code, url } = (error ?? {}) as { code?: unknown; url?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  if (typeof url === 'string' && url.startsWith('file:')) return fileURLToPath(url);
  return /Cannot find module '([^']+)'/.exec(String((error as Error).message))?.[1] ?? 'a file';
}

try {
  const { runMain } = await import('./main.ts');
  await runMain(process.argv.slice(2));
} catch (error) {
  const file = missingFile(error);
  if (file === undefined) throw error;
  process.stderr.write(
    `enginectl: ${file} is missing: this copy of enginectl is incomplete; nothing was run\n` +
      '  hint: dist/cli.mjs loads its code from the cli/ directory beside it: copy the two together (or install the npm package, which holds both)\n',
  );
  process.exitCode = 2;
}
