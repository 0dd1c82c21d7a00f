#!/usr/bin/env node
// Entry of the enginectl CLI (bundled to dist/cli.mjs).
import { runMain } from './main.ts';

await runMain(process.argv.slice(2));
