// Builds the committed bundles in dist/ with esbuild. `node build.mjs` (npm run build).
// The bundles are ESM; a createRequire banner lets bundled CommonJS (undici) require Node built-ins.
import { build } from 'esbuild';

const banner = {
  js: "import { createRequire as __enginectlCreateRequire } from 'node:module';\nconst require = __enginectlCreateRequire(import.meta.url);",
};

export const entries = [{ in: 'src/cli/bin.ts', out: 'cli' }];

export function options(outdir = 'dist') {
  return {
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.18',
    minify: true,
    legalComments: 'none',
    banner,
    logLevel: 'warning',
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await build(options());
}
