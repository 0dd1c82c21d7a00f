#!/usr/bin/env node
// Entry of the enginectl CLI, bundled to dist/cli.mjs with each command's modules in chunks under
// dist/cli/ (imported when the command runs): nothing is read at start-up but the package's own
// files (no code cache: a cache file is code another user could plant).
import { runMain } from './main.ts';

await runMain(process.argv.slice(2));
