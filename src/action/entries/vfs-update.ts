// Entry of the vfs-update action (dist/action/vfs-update.mjs).
import { main } from '../main.ts';

await main('vfs-update');
