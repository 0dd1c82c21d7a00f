// Builds the single executable `dist/enginectl` (`npm run build:exe`; another path as the first
// argument): the CLI bundled as CommonJS (what Node 20's SEA runs), a SEA blob holding a start-up
// snapshot (src/cli/sea-entry.ts: modules loaded, a pipeline validated), and a copy of this
// Node binary with the blob injected by postject, for the platform it runs on (Linux; macOS, where
// the copy's signature is removed and made again; Windows). Not committed: built by the tests
// and by the release workflow (.github/workflows/release.yml) on each platform.
import { execFileSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { seaBundle } from './build.mjs';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const out = process.argv[2] ?? 'dist/enginectl';
const work = 'dist/sea';
mkdirSync(work, { recursive: true });

await seaBundle(`${work}/cli.cjs`);
writeFileSync(
  `${work}/sea-config.json`,
  JSON.stringify({
    main: `${work}/cli.cjs`,
    output: `${work}/prep.blob`,
    disableExperimentalSEAWarning: true,
    useSnapshot: true,
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', `${work}/sea-config.json`], { stdio: 'inherit' });
copyFileSync(process.execPath, out);
chmodSync(out, 0o755);
const mac = process.platform === 'darwin';
if (mac) execFileSync('codesign', ['--remove-signature', out]);
const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
execFileSync(
  process.execPath,
  [
    postject,
    out,
    'NODE_SEA_BLOB',
    `${work}/prep.blob`,
    '--sentinel-fuse',
    FUSE,
    ...(mac ? ['--macho-segment-name', 'NODE_SEA'] : []),
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
if (mac) execFileSync('codesign', ['--sign', '-', out]);
process.stdout.write(
  `${out}: ${(statSync(out).size / 1024 / 1024).toFixed(1)} MiB (Node ${process.version}, ${process.platform}-${process.arch})\n`,
);
