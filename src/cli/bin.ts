#!/usr/bin/env node
// Entry of the enginectl CLI, bundled alone to dist/cli.mjs. The CLI itself is dist/cli-main.cjs
// (src/cli/main.ts as CommonJS), compiled here with a V8 code cache from the user's cache
// directory (code-cache.ts): Node 20 keeps no compile cache for ES modules.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setServerCallFlags } from '../api/v8-flags.ts';
import { CALLING_COMMANDS, cacheDirectory, cacheFileName, compileBundle } from './code-cache.ts';
import type { runMain as RunMain } from './main.ts';

/** The content hash of dist/cli-main.cjs, set by build.mjs. */
declare const ENGINECTL_MAIN_ID: string;

const command = process.argv[2];
// Before the bundle is compiled: the flags a cache was made under (see CALLING_COMMANDS).
if (command !== undefined && CALLING_COMMANDS.includes(command)) setServerCallFlags();
const file = fileURLToPath(new URL('./cli-main.cjs', import.meta.url));
const dir = cacheDirectory(process.env, process.platform, homedir);
const bundle = compileBundle(file, dir && join(dir, cacheFileName(ENGINECTL_MAIN_ID, process.version, process.arch, command)));
const { runMain } = bundle.run(createRequire(file)) as { runMain: typeof RunMain };
process.once('exit', () => bundle.save());
await runMain(process.argv.slice(2));
