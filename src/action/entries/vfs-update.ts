// Entry of the vfs-update action: dist/action/vfs-update.mjs runs it; GitHub's local-action (and any
// runner of the actions/typescript-action shape) imports it and calls run().
import { isEntry, main } from '../main.ts';

export async function run(): Promise<void> {
  await main('vfs-update');
}

if (isEntry(import.meta.url)) await run();
