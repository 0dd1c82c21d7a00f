// Entry of the transaction-log-clear action: dist/action/transaction-log-clear.mjs runs it; GitHub's local-action (and any
// runner of the actions/typescript-action shape) imports it and calls run().
import { isEntry, main } from '../main.ts';

export async function run(): Promise<void> {
  await main('transaction-log-clear');
}

if (isEntry(import.meta.url)) await run();
