// Entry of the system-update action (dist/action/system-update.mjs).
import { main } from '../main.ts';

await main('system-update');
