// Builds the committed bundles in dist/ with esbuild. `node build.mjs` (npm run build).
// - dist/cli.mjs: the CLI's entry (no Octokit), each command's modules in chunks under dist/cli/,
//   loaded when the command runs.
// - dist/action/*.mjs: one entry per action, sharing chunks under dist/action/chunks/.
// The actions' bundles are ESM; a createRequire banner lets bundled CommonJS (undici) require Node
// built-ins.
import { mkdir, readFile, rm } from 'node:fs/promises';
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
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.includes('/node_modules/') ? undefined : { path: lean },
    );
    const noH2 = new URL('./scripts/undici-no-h2.cjs', import.meta.url).pathname;
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer) ? { path: noH2 } : undefined,
    );
    const locales = new URL('./scripts/zod-locales-en.mjs', import.meta.url).pathname;
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: locales } : undefined,
    );
  },
};

const banner = {
  js: "import { createRequire as __enginectlCreateRequire } from 'node:module';\nconst require = __enginectlCreateRequire(import.meta.url);",
};

/** The CLI as one CommonJS file, for a single executable (Node SEA runs CommonJS): build-exe.mjs and the release. */
export function seaBundle(outfile) {
  return build({
    entryPoints: ['src/cli/sea-entry.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20.18',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [packageVersionOnly, leanDependencies],
  });
}

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

/**
 * dist/cli.mjs: the CLI's entry; what each command runs is in chunks under dist/cli/, imported when
 * it runs (src/cli/run-command.ts). A cold `validate` compiles 0.5 MB of the 1.1 MB, not undici,
 * the emulator or the HTML report: 0.89x the single file's time (bench/RESULTS.md).
 */
const cli = (outdir) => ({
  ...common,
  entryPoints: [{ in: 'src/cli/bin.ts', out: 'cli' }],
  outdir,
  splitting: true,
  chunkNames: 'cli/[name]-[hash]',
});

const actions = (outdir) => ({
  ...common,
  entryPoints: ACTION_ENTRIES.map((name) => ({ in: `src/action/entries/${name}.ts`, out: name })),
  outdir: `${outdir}/action`,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});

/** Builds every committed bundle under `outdir`; `overrides` go to every esbuild call. */
export async function buildAll(outdir = 'dist', overrides = {}) {
  await mkdir(outdir, { recursive: true });
  await build({ ...cli(outdir), ...overrides });
  await build({ ...actions(outdir), ...overrides });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await rm('dist/action', { recursive: true, force: true });
  await rm('dist/cli', { recursive: true, force: true });
  await buildAll();
}
