// Builds the committed bundles in dist/ with esbuild. `node build.mjs` (npm run build).
// - dist/cli.mjs: the CLI in one file (no Octokit: commands load only what they need).
// - dist/action/*.mjs: one entry per action, sharing chunks under dist/action/chunks/.
// The bundles are ESM; a createRequire banner lets bundled CommonJS (undici) require Node built-ins.
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';

/** Only `version` of package.json goes into the bundles: editing a script or a dependency must
 * not change them (src/version.ts imports the file whole). */
export const packageVersionOnly = {
  name: 'package-version-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]package\.json$/ }, async (args) => ({
      contents: JSON.stringify({ version: JSON.parse(await readFile(args.path, 'utf8')).version }),
      loader: 'json',
    }));
  },
};

/**
 * Start-up is compiling the bundle (Node 20 keeps no code cache for ES modules), so the bundles
 * carry only what runs: undici's request path without fetch, WebSocket and mocks
 * (scripts/undici-lean.mjs), and zod with its English messages only (zod bundles every locale
 * it has). bench/RESULTS.md has the measurements.
 */
export const leanDependencies = {
  name: 'lean-dependencies',
  setup(b) {
    const lean = new URL('./scripts/undici-lean.mjs', import.meta.url).pathname;
    b.onResolve({ filter: /^undici$/ }, (args) => (args.importer.includes('/node_modules/') ? undefined : { path: lean }));
    const locales = new URL('./scripts/zod-locales-en.mjs', import.meta.url).pathname;
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: locales } : undefined));
  },
};

const banner = {
  js: "import { createRequire as __enginectlCreateRequire } from 'node:module';\nconst require = __enginectlCreateRequire(import.meta.url);",
};

export const ACTION_ENTRIES = ['main', 'vfs-update', 'system-update', 'replication-sync', 'transaction-log-clear'];

const common = {
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.18',
  minify: true,
  legalComments: 'none',
  banner,
  logLevel: 'warning',
  plugins: [packageVersionOnly, leanDependencies],
};

/** The esbuild option sets, writing under `outdir`. */
export function options(outdir = 'dist') {
  return [
    { ...common, entryPoints: [{ in: 'src/cli/bin.ts', out: 'cli' }], outdir },
    {
      ...common,
      entryPoints: ACTION_ENTRIES.map((name) => ({ in: `src/action/entries/${name}.ts`, out: name })),
      outdir: `${outdir}/action`,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rm } = await import('node:fs/promises');
  await rm('dist/action', { recursive: true, force: true });
  for (const o of options()) await build(o);
}
