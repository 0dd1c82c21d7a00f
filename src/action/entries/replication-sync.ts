// Entry of the replication-sync action (dist/action/replication-sync.mjs).
import { main } from '../main.ts';

await main('replication-sync');
