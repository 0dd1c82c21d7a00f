// Entry of the enginectl action (dist/action/main.mjs).
import { main } from '../main.ts';

await main('enginectl');
