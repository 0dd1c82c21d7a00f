// Entry of the transaction-log-clear action (dist/action/transaction-log-clear.mjs).
import { main } from '../main.ts';

await main('transaction-log-clear');
