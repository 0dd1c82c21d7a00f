#!/usr/bin/env node
// Entry of the enginectl CLI, bundled to dist/cli.mjs: the whole CLI in one ES module, nothing
// read at start-up but this file (no code cache: a cache file is code another user could plant).
import { runMain } from './main.ts';

await runMain(process.argv.slice(2));
