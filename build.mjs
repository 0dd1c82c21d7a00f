// Builds the committed bundles in dist/ with esbuild. `node build.mjs` (npm run build).
// - dist/cli.mjs: the CLI's entry, which compiles dist/cli-main.cjs (the CLI in one CommonJS file,
//   no Octokit) with a code cache.
// - dist/action/*.mjs: one entry per action, sharing chunks under dist/action/chunks/.
// The actions' bundles are ESM; a createRequire banner lets bundled CommonJS (undici) require Node
// built-ins.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
 * carry only what runs: undici's request path without fetch, WebSocket, mocks and HTTP/2
 * (scripts/undici-lean.mjs, scripts/undici-no-h2.cjs), and zod with its English messages only
 * (zod bundles every locale it has). bench/RESULTS.md has the measurements.
 */
export const leanDependencies = {
  name: 'lean-dependencies',
  setup(b) {
    const lean = new URL('./scripts/undici-lean.mjs', import.meta.url).pathname;
    b.onResolve({ filter: /^undici$/ }, (args) => (args.importer.includes('/node_modules/') ? undefined : { path: lean }));
    const noH2 = new URL('./scripts/undici-no-h2.cjs', import.meta.url).pathname;
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => (/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer) ? { path: noH2 } : undefined));
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

/** The CLI as CommonJS: what dist/cli.mjs compiles with a code cache (src/cli/code-cache.ts). */
const cliMain = (outdir) => ({ ...common, banner: undefined, format: 'cjs', entryPoints: [{ in: 'src/cli/main.ts', out: 'cli-main' }], outExtension: { '.js': '.cjs' }, outdir, write: false });

/** dist/cli.mjs: the loader, which names the build of dist/cli-main.cjs its cache is for. */
const cliLoader = (outdir, mainId) => ({ ...common, banner: undefined, minify: false, entryPoints: [{ in: 'src/cli/bin.ts', out: 'cli' }], outdir, define: { ENGINECTL_MAIN_ID: JSON.stringify(mainId) } });

const actions = (outdir) => ({
  ...common,
  entryPoints: ACTION_ENTRIES.map((name) => ({ in: `src/action/entries/${name}.ts`, out: name })),
  outdir: `${outdir}/action`,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});

/** Builds every committed bundle under `outdir`; `overrides` go to every esbuild call. */
export async function buildAll(outdir = 'dist', overrides = {}) {
  const [main] = (await build({ ...cliMain(outdir), ...overrides })).outputFiles;
  // dist/cli.mjs reads it as Latin-1 (src/cli/code-cache.ts): esbuild escapes non-ASCII text.
  if (main.contents.some((byte) => byte > 0x7f)) throw new Error(`${main.path}: not ASCII`);
  await mkdir(outdir, { recursive: true });
  await writeFile(main.path, main.contents);
  await build({ ...cliLoader(outdir, createHash('sha256').update(main.contents).digest('hex').slice(0, 16)), ...overrides });
  await build({ ...actions(outdir), ...overrides });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await rm('dist/action', { recursive: true, force: true });
  await buildAll();
}
