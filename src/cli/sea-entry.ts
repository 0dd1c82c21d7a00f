// Entry of the single executable (Node SEA, built by build-exe.mjs): Node 20's SEA runs a
// CommonJS main script, so this entry has no top-level await.
import { runMain } from './main.ts';

void runMain(process.argv.slice(2));
