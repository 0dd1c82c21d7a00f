// Entry of the system-update action: dist/action/system-update.mjs runs it; GitHub's local-action (and any
// runner of the actions/typescript-action shape) imports it and calls run().
import { isEntry, main } from '../main.ts';

export async function run(): Promise<void> {
  await main('system-update');
}

if (isEntry(import.meta.url)) await run();
